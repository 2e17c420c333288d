"""Created an array with a negative dimension (a size computed as `n - k` that went below zero).

Shapes must be non-negative; `-1` is only meaningful in reshape.
The fix clamps the computed size at zero (or checks the arithmetic that produced it).
"""
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "ae84ccd6f8937df6"
TAGS = ["shapes", "array_creation"]
MESSAGE_CONTAINS = "shape must have every element be nonnegative"


def trigger():
    seq_len, max_len = 12, 10
    return jnp.zeros((max_len - seq_len, 4))


def fixed():
    seq_len, max_len = 12, 10
    return jnp.zeros((max(max_len - seq_len, 0), 4)).block_until_ready()
