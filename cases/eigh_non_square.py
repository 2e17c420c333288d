"""Called `jnp.linalg.eigh` on a non-square matrix.

An eigendecomposition is defined for square (here Hermitian) matrices; trailing axes must be (n, n).
The fix decomposes the square Gram matrix `a.T @ a` (or uses `jnp.linalg.svd` on `a`).
"""
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "e11f06edd73a9341"
TAGS = ["linalg", "shapes"]
MESSAGE_CONTAINS = "Argument to linalg.eigh must have shape [..., n, n]"


def trigger():
    a = jnp.arange(6.0).reshape(2, 3)
    return jnp.linalg.eigh(a)


def fixed():
    a = jnp.arange(6.0).reshape(2, 3)
    w, v = jnp.linalg.eigh(a.T @ a)
    return w.block_until_ready()
