"""Staged a `checkify.check` under `jit` without wrapping the function in `checkify.checkify`.

A check must be functionalized (turned into an error value) before it is compiled.
The fix wraps the jitted function with `checkify.checkify` and raises with `err.throw()`.
"""
import jax
import jax.numpy as jnp
from jax.experimental import checkify

EXPECTED = "ValueError"
ERROR_ID = "700a203725ccb9be"
TAGS = ["checkify", "jit", "debugging"]
MESSAGE_CONTAINS = "Cannot abstractly evaluate a checkify.check which was not functionalized"


def trigger():
    @jax.jit
    def safe_sqrt(x):
        checkify.check(x >= 0, "negative input: {}", x)
        return jnp.sqrt(x)

    return safe_sqrt(4.0)


def fixed():
    @jax.jit
    def safe_sqrt(x):
        checkify.check(x >= 0, "negative input: {}", x)
        return jnp.sqrt(x)

    err, out = checkify.checkify(safe_sqrt)(4.0)
    err.throw()
    return out.block_until_ready()
