"""Passed `map_coordinates` a boundary mode it does not support ("grid-wrap").

Supported modes are 'constant', 'nearest', 'mirror', 'reflect' and 'wrap'.
The fix uses "wrap".
"""
import jax.numpy as jnp
from jax.scipy.ndimage import map_coordinates

EXPECTED = "NotImplementedError"
ERROR_ID = "ef2b37f42f1a2508"
TAGS = ["scipy", "interpolation"]
MESSAGE_CONTAINS = "map_coordinates does not yet support mode"


def trigger():
    image = jnp.arange(16.0).reshape(4, 4)
    coords = [jnp.array([4.5]), jnp.array([1.0])]
    return map_coordinates(image, coords, order=1, mode="grid-wrap")


def fixed():
    image = jnp.arange(16.0).reshape(4, 4)
    coords = [jnp.array([4.5]), jnp.array([1.0])]
    return map_coordinates(image, coords, order=1, mode="wrap").block_until_ready()
