"""Passed an int32 tangent for a float32 primal to `jax.jvp`.

Tangents must have the same dtype as their primals (float0 for integer primals).
The fix builds the tangent with `jnp.ones_like(primal)`.
"""
import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "980fe7c9a90b4297"
FORMER_ERROR_IDS = ["d8079b755d412d4f"]  # before jax 0.12
TAGS = ["grad", "autodiff", "jvp", "dtypes"]
MESSAGE_CONTAINS = "primal and tangent arguments to jax.jvp do not match; dtypes must be equal"


def trigger():
    x = jnp.arange(3.0)
    return jax.jvp(jnp.tanh, (x,), (jnp.ones(3, dtype=jnp.int32),))


def fixed():
    x = jnp.arange(3.0)
    return jax.block_until_ready(jax.jvp(jnp.tanh, (x,), (jnp.ones_like(x),)))
