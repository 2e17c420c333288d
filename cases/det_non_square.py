"""Called `jnp.linalg.det` on a non-square matrix.

A determinant exists only for square matrices.
The fix takes the determinant of a square matrix (here the Gram matrix).
"""
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "30f95ec07d52066f"
TAGS = ["linalg", "shapes"]
MESSAGE_CONTAINS = "must have shape [..., n, n]"


def trigger():
    jac = jnp.arange(6.0).reshape(2, 3)
    return jnp.linalg.det(jac)


def fixed():
    jac = jnp.arange(6.0).reshape(2, 3)
    return jnp.linalg.det(jac @ jac.T).block_until_ready()
