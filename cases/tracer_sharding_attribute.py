"""Read `.sharding` of a traced value inside a jitted function.

A tracer has no concrete placement; its sharding is part of its type.
The fix reads it from the type with `jax.typeof(x).sharding`.
"""
import jax
import jax.numpy as jnp

EXPECTED = "AttributeError"
ERROR_ID = "d3ba3eb6f732b20c"
TAGS = ["jit", "sharding", "tracing"]
MESSAGE_CONTAINS = "The 'sharding' attribute is not available on traced array"


def trigger():
    @jax.jit
    def describe(x):
        print(x.sharding)
        return x * 2

    return describe(jnp.ones(8))


def fixed():
    @jax.jit
    def describe(x):
        print(jax.typeof(x).sharding)
        return x * 2

    return describe(jnp.ones(8)).block_until_ready()
