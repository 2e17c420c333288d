"""Called `lax.gather` with `start_index_map` longer than the index vectors.

Each index vector (the last axis of `indices`) holds one start coordinate per `start_index_map` entry.
The fix gives two-component indices for a two-entry `start_index_map`.
"""
import jax.numpy as jnp
from jax import lax

EXPECTED = "TypeError"
ERROR_ID = "a76d4152a98ae835"
TAGS = ["gather", "lax", "shapes"]
MESSAGE_CONTAINS = "elements in start_index_map and the bound of dimension index_vector_dim"


def trigger():
    grid = jnp.arange(12.0).reshape(3, 4)
    points = jnp.array([[0], [2]])
    dnums = lax.GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(0, 1), start_index_map=(0, 1))
    return lax.gather(grid, points, dnums, slice_sizes=(1, 1))


def fixed():
    grid = jnp.arange(12.0).reshape(3, 4)
    points = jnp.array([[0, 1], [2, 3]])
    dnums = lax.GatherDimensionNumbers(offset_dims=(), collapsed_slice_dims=(0, 1), start_index_map=(0, 1))
    return lax.gather(grid, points, dnums, slice_sizes=(1, 1)).block_until_ready()
