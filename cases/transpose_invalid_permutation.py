"""Gave `jnp.transpose` axes that are not a permutation of the array's dimensions.

axes must list each dimension exactly once.
The fix lists every axis once, in the new order.
"""
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "8409e17d9b632d04"
TAGS = ["shapes", "transpose"]
MESSAGE_CONTAINS = "transpose permutation isn't a permutation of operand dimensions"


def trigger():
    images = jnp.ones((8, 32, 32, 3))  # NHWC
    return jnp.transpose(images, (0, 3, 1, 1))


def fixed():
    images = jnp.ones((8, 32, 32, 3))
    return jnp.transpose(images, (0, 3, 1, 2)).block_until_ready()  # NCHW
