"""Called `jnp.linalg.inv` on a non-square matrix.

Only square matrices (shape [..., n, n]) have an inverse.
The fix uses the pseudo-inverse `jnp.linalg.pinv` (or solves a least-squares problem).
"""
import jax
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "aef1874eee882314"
TAGS = ["linalg", "shapes"]
MESSAGE_CONTAINS = "Argument to inv must have shape [..., n, n], got (3, 2)."


def _design():
    return jnp.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])


def trigger():
    return jnp.linalg.inv(_design())


def fixed():
    return jnp.linalg.pinv(_design()).block_until_ready()
