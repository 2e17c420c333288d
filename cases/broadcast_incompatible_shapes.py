"""Called `jnp.where` with a condition and values whose shapes do not broadcast together.

All three arguments are broadcast to one shape under NumPy rules; (4,) and (3,) cannot be.
The fix gives the values the condition's shape (here by masking per row with a (4, 1) condition).
"""
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "e754f73a680d5a20"
TAGS = ["broadcasting", "shapes", "numpy"]
MESSAGE_CONTAINS = "Incompatible shapes for broadcasting"


def trigger():
    scores = jnp.ones((4, 3))
    row_valid = jnp.array([True, True, False, True])
    return jnp.where(row_valid, scores, 0.0)


def fixed():
    scores = jnp.ones((4, 3))
    row_valid = jnp.array([True, True, False, True])
    return jnp.where(row_valid[:, None], scores, 0.0).block_until_ready()
