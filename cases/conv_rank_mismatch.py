"""Called `lax.conv` with a 4-D input (NCHW) and a 5-D kernel.

Convolution needs lhs and rhs of equal rank (N+2 for N spatial dims).
The fix gives the kernel the OIHW layout of the 2-D convolution.
"""
import jax
import jax.numpy as jnp
from jax import lax

EXPECTED = "TypeError"
ERROR_ID = "36f689123061eeb2"
TAGS = ["shapes", "lax", "convolution"]
MESSAGE_CONTAINS = "convolution requires lhs and rhs ndim to be equal, got 4 and 5"


def trigger():
    images = jnp.ones((1, 1, 5, 5))
    kernel = jnp.ones((2, 1, 3, 3, 3))
    return lax.conv(images, kernel, (1, 1), "SAME")


def fixed():
    images = jnp.ones((1, 1, 5, 5))
    kernel = jnp.ones((2, 1, 3, 3))
    return lax.conv(images, kernel, (1, 1), "SAME").block_until_ready()
