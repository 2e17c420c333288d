"""Passed `-1` for two dimensions of a `reshape` target shape.

Only one dimension can be inferred from the array's size; the others must be given.
The fix states one of the two dimensions explicitly.
"""
import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "3007b536bfa4972a"
TAGS = ["shapes", "reshape", "numpy"]
MESSAGE_CONTAINS = "can only specify one unknown axis size with a `-1` value, got (-1, -1, 4)"


def trigger():
    return jnp.arange(24.0).reshape(-1, -1, 4)


def fixed():
    return jnp.arange(24.0).reshape(2, -1, 4).block_until_ready()
