"""Gave `jax.checkpoint` a `static_argnums` index past the function's arguments.

static_argnums are positions in the call's positional arguments (here 2 args: 0 and 1).
The fix uses the index of the static argument, 1.
"""
import jax
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "0a53f8f56d368a7b"
TAGS = ["checkpoint", "remat", "static_args", "autodiff"]
MESSAGE_CONTAINS = "the `static_argnums` argument to `jax.checkpoint` / `jax.remat` can only take integer values"


def _layer(x, n):
    for _ in range(n):
        x = jnp.sin(x)
    return x


def trigger():
    return jax.grad(lambda x: jax.checkpoint(_layer, static_argnums=(2,))(x, 3))(1.0)


def fixed():
    return jax.grad(lambda x: jax.checkpoint(_layer, static_argnums=(1,))(x, 3))(1.0).block_until_ready()
