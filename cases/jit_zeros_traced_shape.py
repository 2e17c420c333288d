"""Passed a traced value as the shape argument of `jnp.zeros` inside jit.

Shapes must be tuples of concrete integers; a jit argument is an abstract tracer.
The fix declares the size argument static (`static_argnames`).
"""
import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "69acdfc3a2fd0885"
TAGS = ["jit", "tracing", "shapes"]
MESSAGE_CONTAINS = "Shapes must be 1D sequences of concrete values of integer type"


def trigger():
    def make_buffer(x, size):
        return jnp.zeros((size,)) + x

    return jax.jit(make_buffer)(jnp.float32(1.0), 4)


def fixed():
    def make_buffer(x, size):
        return jnp.zeros((size,)) + x

    f = jax.jit(make_buffer, static_argnames="size")
    return f(jnp.float32(1.0), size=4).block_until_ready()
