"""Called an ahead-of-time compiled function with arguments of another pytree structure.

A compiled executable fixes the argument structure it was lowered with.
The fix passes the arguments in the same structure (here the bare array, not a tuple).
"""
import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "eed147a16c5e605e"
TAGS = ["jit", "aot", "pytrees"]
MESSAGE_CONTAINS = "Function compiled with input pytree does not match the input pytree it was called with"


def trigger():
    compiled = jax.jit(lambda x: x * 2).lower(jnp.ones(3)).compile()
    return compiled((jnp.ones(3),))


def fixed():
    compiled = jax.jit(lambda x: x * 2).lower(jnp.ones(3)).compile()
    return compiled(jnp.ones(3)).block_until_ready()
