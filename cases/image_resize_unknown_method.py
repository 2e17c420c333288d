"""Gave `jax.image.resize` a method name spelled like a PIL constant ("BILINEAR").

Method names are lower case: "nearest", "linear" (or "bilinear"), "cubic" (or "bicubic"), "lanczos3", "lanczos5", "area".
The fix writes "bilinear".
"""
import jax
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "7ddb2eeabd735612"
TAGS = ["image"]
MESSAGE_CONTAINS = "Unknown resize method"


def trigger():
    image = jnp.ones((64, 64, 3))
    return jax.image.resize(image, (32, 32, 3), method="BILINEAR")


def fixed():
    image = jnp.ones((64, 64, 3))
    return jax.image.resize(image, (32, 32, 3), method="bilinear").block_until_ready()
