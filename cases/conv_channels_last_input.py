"""Passed channels-last (NHWC) images to `lax.conv_general_dilated` without saying so.

Without `dimension_numbers` the input is read as NCHW and the kernel as OIHW, so the height is taken for channels.
The fix names the layouts: `("NHWC", "HWIO", "NHWC")`, with the kernel stored as HWIO.
"""
import jax.numpy as jnp
from jax import lax

EXPECTED = "ValueError"
ERROR_ID = "35ee33edd7e36276"
TAGS = ["convolution", "shapes", "lax"]
MESSAGE_CONTAINS = "must equal the rhs input feature dimension size"


def trigger():
    images = jnp.ones((2, 28, 28, 3))  # batch, height, width, channels
    kernel = jnp.ones((16, 3, 5, 5))  # out, in, height, width
    return lax.conv_general_dilated(images, kernel, window_strides=(1, 1), padding="SAME")


def fixed():
    images = jnp.ones((2, 28, 28, 3))
    kernel = jnp.ones((5, 5, 3, 16))  # height, width, in, out
    return lax.conv_general_dilated(images, kernel, window_strides=(1, 1), padding="SAME",
                                    dimension_numbers=("NHWC", "HWIO", "NHWC")).block_until_ready()
