"""A `custom_jvp` rule returned tangents with a different pytree structure than its primal outputs.

The rule returns `(primal_out, tangent_out)` and the two must have the same structure: one tangent per output leaf.
The fix returns a tangent for each of the two outputs.
"""
import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "72e3ade82ffde04b"
TAGS = ["autodiff", "custom_jvp", "pytrees"]
MESSAGE_CONTAINS = "must produce primal and tangent outputs with equal container (pytree) structures"


def trigger():
    @jax.custom_jvp
    def sin_cos(x):
        return jnp.sin(x), jnp.cos(x)

    @sin_cos.defjvp
    def sin_cos_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return sin_cos(x), jnp.cos(x) * t

    return jax.jvp(sin_cos, (1.0,), (1.0,))


def fixed():
    @jax.custom_jvp
    def sin_cos(x):
        return jnp.sin(x), jnp.cos(x)

    @sin_cos.defjvp
    def sin_cos_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return sin_cos(x), (jnp.cos(x) * t, -jnp.sin(x) * t)

    return jax.block_until_ready(jax.jvp(sin_cos, (1.0,), (1.0,)))
