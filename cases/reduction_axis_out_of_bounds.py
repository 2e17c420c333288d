"""Reduced over `axis=2` of a 2-D array.

Axis arguments are validated against `ndim`; valid axes for a 2-D array are -2..1.
The fix uses the intended last axis (`axis=-1`).
"""
import jax
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "9605d3f5682e2a66"
TAGS = ["shapes", "numpy"]
MESSAGE_CONTAINS = "axis 2 is out of bounds for array of dimension 2"


def trigger():
    return jnp.sum(jnp.ones((4, 3)), axis=2)


def fixed():
    return jnp.sum(jnp.ones((4, 3)), axis=-1).block_until_ready()
