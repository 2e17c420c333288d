"""Indexed with a boolean mask whose length differs from the axis it masks.

A boolean index must have exactly the shape of the dimensions it selects from.
The fix builds the mask from the axis being indexed, so the lengths agree.
"""
import jax.numpy as jnp

EXPECTED = "IndexError"
ERROR_ID = "2ab4655ca3c11d50"
TAGS = ["indexing", "shapes"]
MESSAGE_CONTAINS = "boolean index did not match shape of indexed array"


def trigger():
    table = jnp.arange(12).reshape(3, 4)
    keep = jnp.array([True, False, True])  # one entry per row, not per column
    return table[:, keep]


def fixed():
    table = jnp.arange(12).reshape(3, 4)
    keep = jnp.array([True, False, True])
    return table[keep, :].block_until_ready()
