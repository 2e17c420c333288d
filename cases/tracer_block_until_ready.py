"""Called `.block_until_ready()` on a value inside a jitted function.

Inside `jit` values are tracers; nothing runs until the compiled function is called, so there is nothing to wait for.
The fix waits on the result of the jitted call instead.
"""
import jax
import jax.numpy as jnp

EXPECTED = "AttributeError"
ERROR_ID = "a5f30353588e3203"
TAGS = ["jit", "tracing", "async_dispatch"]
MESSAGE_CONTAINS = "The 'block_until_ready' method is not available on traced array"


def trigger():
    @jax.jit
    def step(x):
        y = jnp.tanh(x @ x)
        return y.block_until_ready()

    return step(jnp.eye(4))


def fixed():
    @jax.jit
    def step(x):
        return jnp.tanh(x @ x)

    return step(jnp.eye(4)).block_until_ready()
