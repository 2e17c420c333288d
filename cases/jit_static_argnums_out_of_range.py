"""Gave `jax.jit` a `static_argnums` index that the function does not have.

jit validates `static_argnums` against the function signature at decoration time.
The fix points `static_argnums` at the actual position of the static argument.
"""
import jax
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "0427c3881e9fb9d6"
TAGS = ["jit", "static_args"]
MESSAGE_CONTAINS = "Jitted function has static_argnums=(2,), but only accepts 2 positional arguments"


def _tile(x, reps):
    return jnp.tile(x, reps)


def trigger():
    return jax.jit(_tile, static_argnums=(2,))


def fixed():
    f = jax.jit(_tile, static_argnums=(1,))
    return f(jnp.arange(3), 2).block_until_ready()
