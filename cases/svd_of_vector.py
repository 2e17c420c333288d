"""Called `jnp.linalg.svd` on a 1-D array.

The SVD factors a matrix; its input needs at least two dimensions.
The fix makes the vector a one-row matrix (or uses `jnp.linalg.norm` if its length was wanted).
"""
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "9f78c9c717f84ef3"
TAGS = ["linalg", "shapes"]
MESSAGE_CONTAINS = "to svd must have rank at least 2"


def trigger():
    v = jnp.array([3.0, 4.0])
    return jnp.linalg.svd(v)


def fixed():
    v = jnp.array([3.0, 4.0])
    u, s, vt = jnp.linalg.svd(v[None, :])
    return s.block_until_ready()
