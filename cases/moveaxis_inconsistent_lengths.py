"""Gave `jnp.moveaxis` different numbers of source and destination axes.

Each source axis needs exactly one destination.
The fix lists as many destinations as sources.
"""
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "6d481a0eb4f3e5d8"
TAGS = ["shapes", "transpose"]
MESSAGE_CONTAINS = "Inconsistent number of elements"


def trigger():
    x = jnp.ones((2, 3, 4))
    return jnp.moveaxis(x, (0, 1), (-1,))


def fixed():
    x = jnp.ones((2, 3, 4))
    return jnp.moveaxis(x, (0, 1), (-2, -1)).block_until_ready()
