"""Gave `lax.conv` one stride for a 2-D convolution.

window_strides needs one entry per spatial dimension of the kernel.
The fix gives a stride for both height and width.
"""
import jax.numpy as jnp
from jax import lax

EXPECTED = "ValueError"
ERROR_ID = "b3d83c2a9542f9b7"
TAGS = ["convolution", "lax", "shapes"]
MESSAGE_CONTAINS = "window and window_strides must have the same number of dimensions"


def trigger():
    images = jnp.ones((1, 3, 16, 16))  # NCHW
    kernel = jnp.ones((8, 3, 3, 3))  # OIHW
    return lax.conv(images, kernel, (2,), "SAME")


def fixed():
    images = jnp.ones((1, 3, 16, 16))
    kernel = jnp.ones((8, 3, 3, 3))
    return lax.conv(images, kernel, (2, 2), "SAME").block_until_ready()
