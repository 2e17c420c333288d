"""Indexed with a slice whose step is zero.

A zero step would never advance; NumPy refuses it too.
The fix uses a positive (or negative) step.
"""
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "6f557d7e23aed240"
TAGS = ["indexing", "slicing"]
MESSAGE_CONTAINS = "slice step cannot be zero"


def trigger():
    x = jnp.arange(10)
    stride = len(x) // 20  # rounds down to 0
    return x[::stride]


def fixed():
    x = jnp.arange(10)
    stride = max(len(x) // 20, 1)
    return x[::stride].block_until_ready()
