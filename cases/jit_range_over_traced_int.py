"""Called `range()` with a jit argument, which requires a concrete Python int.

`range(n)` calls `n.__index__()`; a traced integer has no concrete value, so JAX raises.
The fix marks `n` as static with `static_argnums`, so it is a Python int at trace time.
"""
import jax
import jax.numpy as jnp

EXPECTED = "jax.errors.TracerIntegerConversionError"
ERROR_ID = "1852926c01aa644c"
TAGS = ["jit", "tracing"]
MESSAGE_CONTAINS = "The __index__() method was called on traced array"


def trigger():
    def power(x, n):
        out = jnp.ones_like(x)
        for _ in range(n):
            out = out * x
        return out

    return jax.jit(power)(jnp.float32(2.0), 3)


def fixed():
    def power(x, n):
        out = jnp.ones_like(x)
        for _ in range(n):
            out = out * x
        return out

    return jax.jit(power, static_argnums=1)(jnp.float32(2.0), 3).block_until_ready()
