"""Gave `lax.reduce_window` a window with fewer dimensions than the operand.

`window_dimensions` and `window_strides` need one entry per operand axis, batch and channel axes included.
The fix spells out a size-1 window for every axis that is not pooled.
"""
import jax.numpy as jnp
from jax import lax

EXPECTED = "TypeError"
ERROR_ID = "bf1c74305225e152"
TAGS = ["pooling", "lax", "shapes"]
MESSAGE_CONTAINS = "reduce_window got the wrong number of window_dimensions for operand"


def trigger():
    images = jnp.ones((8, 32, 32, 3))  # NHWC
    return lax.reduce_window(images, -jnp.inf, lax.max, (2, 2), (2, 2), "VALID")


def fixed():
    images = jnp.ones((8, 32, 32, 3))
    return lax.reduce_window(images, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID").block_until_ready()
