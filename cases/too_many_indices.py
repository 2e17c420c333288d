"""Indexed a 1-D array with two indices.

The number of integer/slice indices cannot exceed the array's rank.
The fix indexes the array with a single index (or reshapes it to 2-D first).
"""
import jax
import jax.numpy as jnp

EXPECTED = "IndexError"
ERROR_ID = "d987a058d224a28c"
TAGS = ["indexing", "shapes"]
MESSAGE_CONTAINS = "Too many indices: array is 1-dimensional, but 2 were indexed"


def trigger():
    return jnp.arange(6)[1, 2]


def fixed():
    return jnp.arange(6).reshape(2, 3)[1, 2].block_until_ready()
