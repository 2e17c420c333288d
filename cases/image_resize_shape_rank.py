"""Gave `jax.image.resize` a target shape for the spatial axes only.

shape is the full output shape, one entry per input axis, channels included.
The fix keeps the channel axis in the target shape.
"""
import jax
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "ed57119ac69367ad"
TAGS = ["image", "shapes"]
MESSAGE_CONTAINS = "shape must have length equal to the number of dimensions of x"


def trigger():
    image = jnp.ones((32, 32, 3))
    return jax.image.resize(image, (64, 64), method="linear")


def fixed():
    image = jnp.ones((32, 32, 3))
    return jax.image.resize(image, (64, 64, 3), method="linear").block_until_ready()
