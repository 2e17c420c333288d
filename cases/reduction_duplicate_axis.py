"""Passed the same axis twice to a reduction (`jnp.sum(x, axis=(1, -2))` on a 2-D array).

Negative axes are normalised first, so 1 and -1 (or -2 and 0) can name the same axis.
The fix lists each axis once.
"""
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "201fdc6cc214588a"
TAGS = ["reductions", "axes"]
MESSAGE_CONTAINS = "duplicate value in 'axis'"


def trigger():
    x = jnp.ones((3, 4))
    return jnp.sum(x, axis=(1, -1))


def fixed():
    x = jnp.ones((3, 4))
    return jnp.sum(x, axis=(0, 1)).block_until_ready()
