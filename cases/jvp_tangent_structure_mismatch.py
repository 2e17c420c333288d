"""Passed `jax.jvp` fewer tangents than primals.

The tangents tuple must have the primals' tree structure: one tangent per argument.
The fix gives a tangent for each argument (zeros for the one held fixed).
"""
import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "850cdb1364505748"
TAGS = ["jvp", "autodiff", "pytrees"]
MESSAGE_CONTAINS = "primal and tangent arguments to jax.jvp must have the same tree structure"


def trigger():
    def f(w, x):
        return jnp.tanh(w * x)

    return jax.jvp(f, (2.0, 3.0), (1.0,))


def fixed():
    def f(w, x):
        return jnp.tanh(w * x)

    return jax.block_until_ready(jax.jvp(f, (2.0, 3.0), (1.0, 0.0)))
