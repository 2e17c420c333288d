"""Gave vmap an `in_axes` tuple with more entries than the function's positional arguments.

A tuple `in_axes` must have exactly one entry per positional argument.
The fix drops the extra entry.
"""
import jax
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "dbd706f331b0fca3"
FORMER_ERROR_IDS = ["545a0cea0f977260", "e77033b22fd7bfce"]  # before jax 0.12.1; "e77033b22fd7bfce" before jax 0.12
TAGS = ["vmap", "in_axes", "pytrees"]
MESSAGE_CONTAINS = "but got len(in_axes)=3, len(args)=2"


def trigger():
    return jax.vmap(jnp.add, in_axes=(0, 0, None))(jnp.ones(3), jnp.ones(3))


def fixed():
    return jax.vmap(jnp.add, in_axes=(0, 0))(jnp.ones(3), jnp.ones(3)).block_until_ready()
