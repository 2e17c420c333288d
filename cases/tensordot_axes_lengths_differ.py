"""Gave `jnp.tensordot` axes lists of different lengths.

Axes are contracted in pairs: `axes=([a1, a2], [b1, b2])` needs as many axes of each operand.
The fix lists the matching axis of the second operand for both.
"""
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "b175efd9ba162eb9"
TAGS = ["tensordot", "shapes"]
MESSAGE_CONTAINS = "tensordot requires axes lists to have equal length"


def trigger():
    a = jnp.ones((2, 3, 4))
    b = jnp.ones((3, 4, 5))
    return jnp.tensordot(a, b, axes=([1, 2], [0]))


def fixed():
    a = jnp.ones((2, 3, 4))
    b = jnp.ones((3, 4, 5))
    return jnp.tensordot(a, b, axes=([1, 2], [0, 1])).block_until_ready()
