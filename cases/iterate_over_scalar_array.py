"""Iterated over a 0-dimensional JAX array (unpacking a scalar).

Iteration walks axis 0; a 0-d array has none.
The fix keeps the array 1-D (or indexes the values directly).
"""
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "59b2f3b9e5d46323"
TAGS = ["arrays", "shapes"]
MESSAGE_CONTAINS = "iteration over a 0-d array"


def trigger():
    best = jnp.argmax(jnp.array([[1, 5], [7, 2]]))
    row, col = best
    return row, col


def fixed():
    scores = jnp.array([[1, 5], [7, 2]])
    row, col = jnp.unravel_index(jnp.argmax(scores), scores.shape)
    return int(row), int(col)
