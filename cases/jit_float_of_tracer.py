"""Converted a traced array to a Python float with `float()` inside jit.

`float(x)` needs the concrete value, which does not exist while tracing. The fix keeps the
value as a JAX array and casts it with `.astype(jnp.float32)`.
"""
import jax
import jax.numpy as jnp

EXPECTED = "jax.errors.ConcretizationTypeError"
ERROR_ID = "283c7aa7db7d480f"
TAGS = ["jit", "tracing"]
MESSAGE_CONTAINS = "The problem arose with the `float` function"


def trigger():
    @jax.jit
    def scale(x, s):
        return x * float(s)

    return scale(jnp.ones(3), jnp.int32(2))


def fixed():
    @jax.jit
    def scale(x, s):
        return x * s.astype(jnp.float32)

    return scale(jnp.ones(3), jnp.int32(2)).block_until_ready()
