"""Built `jnp.arange(n)` from a jit argument, so the output shape depends on a traced value.

Array shapes must be known at trace time; `jnp.arange` needs a concrete `stop`.
The fix makes `n` static so the shape is fixed per compilation.
"""
import jax
import jax.numpy as jnp

EXPECTED = "jax.errors.ConcretizationTypeError"
ERROR_ID = "12d56306abf9f91b"
TAGS = ["jit", "tracing", "shapes"]
MESSAGE_CONTAINS = "It arose in the jnp.arange argument 'stop'"


def trigger():
    @jax.jit
    def ramp(n):
        return jnp.arange(n) * 2

    return ramp(5)


def fixed():
    ramp = jax.jit(lambda n: jnp.arange(n) * 2, static_argnums=0)
    return ramp(5).block_until_ready()
