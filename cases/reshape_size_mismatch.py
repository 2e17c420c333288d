"""Reshaped an array into a shape with a different number of elements.

A reshape must preserve the total size: 6 elements cannot become shape (4,).
The fix uses a compatible target shape, letting `-1` infer one dimension.
"""
import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "dbed98d87cec2ae1"
TAGS = ["shapes", "reshape", "numpy"]
MESSAGE_CONTAINS = "cannot reshape array of shape (6,) (size 6) into shape"


def trigger():
    return jnp.arange(6).reshape(4)


def fixed():
    return jnp.arange(6).reshape(2, -1).block_until_ready()
