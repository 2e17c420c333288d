"""Gave `lax.reduce_window` fewer strides than window dimensions.

window_strides needs one entry per operand axis, like window_dimensions.
The fix gives a stride for each axis.
"""
import jax.numpy as jnp
from jax import lax

EXPECTED = "TypeError"
ERROR_ID = "7d7cf109eefc7869"
TAGS = ["pooling", "lax", "shapes"]
MESSAGE_CONTAINS = "reduce_window got inconsistent window_strides and window_dimensions"


def trigger():
    grid = jnp.ones((8, 8))
    return lax.reduce_window(grid, 0.0, lax.add, (2, 2), (2,), "VALID")


def fixed():
    grid = jnp.ones((8, 8))
    return lax.reduce_window(grid, 0.0, lax.add, (2, 2), (2, 2), "VALID").block_until_ready()
