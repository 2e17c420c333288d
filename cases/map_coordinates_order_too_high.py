"""Asked `jax.scipy.ndimage.map_coordinates` for cubic spline interpolation (order=3).

Only nearest (order=0) and linear (order=1) interpolation are implemented.
The fix uses order=1.
"""
import jax.numpy as jnp
from jax.scipy.ndimage import map_coordinates

EXPECTED = "NotImplementedError"
ERROR_ID = "afadb2bf89aa723f"
TAGS = ["scipy", "interpolation"]
MESSAGE_CONTAINS = "map_coordinates currently requires order<=1"


def trigger():
    image = jnp.arange(16.0).reshape(4, 4)
    coords = [jnp.array([0.5, 2.5]), jnp.array([1.5, 1.0])]
    return map_coordinates(image, coords, order=3)


def fixed():
    image = jnp.arange(16.0).reshape(4, 4)
    coords = [jnp.array([0.5, 2.5]), jnp.array([1.5, 1.0])]
    return map_coordinates(image, coords, order=1).block_until_ready()
