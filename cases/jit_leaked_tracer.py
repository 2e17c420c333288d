"""Stored an intermediate of a jitted function in an outer list and used it later.

The side effect lets a tracer escape its trace; using it in another computation is an error.
The fix returns the value from the jitted function instead of smuggling it out.
"""
import jax
import jax.numpy as jnp

EXPECTED = "jax.errors.UnexpectedTracerError"
ERROR_ID = "8d937228d23bdab8"
FORMER_ERROR_IDS = ["d29cde8075a43d06"]  # before jax 0.12.1
TAGS = ["jit", "tracing", "side_effects"]
MESSAGE_CONTAINS = "Encountered an unexpected tracer"


def trigger():
    cache = []

    @jax.jit
    def f(x):
        y = x * 2
        cache.append(y)  # leaks the tracer
        return y + 1

    f(jnp.float32(1.0))
    return jax.jit(lambda z: z + cache[0])(jnp.float32(3.0))


def fixed():
    @jax.jit
    def f(x):
        y = x * 2
        return y + 1, y

    _, y = f(jnp.float32(1.0))
    return jax.jit(lambda z: z + y)(jnp.float32(3.0)).block_until_ready()
