"""Passed `map_coordinates` a single array of (row, col) points instead of one coordinate array per axis.

coordinates is a sequence with one array per input dimension, not an (n, ndim) table.
The fix splits the table into per-axis arrays.
"""
import jax.numpy as jnp
from jax.scipy.ndimage import map_coordinates

EXPECTED = "ValueError"
ERROR_ID = "93364e684231b95c"
TAGS = ["scipy", "interpolation", "shapes"]
MESSAGE_CONTAINS = "coordinates must be a sequence of length input.ndim"


def trigger():
    image = jnp.arange(16.0).reshape(4, 4)
    points = jnp.array([[0.5, 1.5], [2.5, 1.0], [1.0, 1.0]])  # (n, 2)
    return map_coordinates(image, points, order=1)


def fixed():
    image = jnp.arange(16.0).reshape(4, 4)
    points = jnp.array([[0.5, 1.5], [2.5, 1.0], [1.0, 1.0]])
    return map_coordinates(image, list(points.T), order=1).block_until_ready()
