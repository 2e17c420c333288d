"""Called `jnp.linalg.cholesky` on a vector (the diagonal of a covariance).

Cholesky factors a square matrix; the trailing two axes must be (n, n).
The fix builds the matrix (`jnp.diag`) first.
"""
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "098b54e375d378a2"
TAGS = ["linalg", "shapes"]
MESSAGE_CONTAINS = "Argument to linalg.cholesky must have shape [..., n, n]"


def trigger():
    variances = jnp.array([1.0, 2.0, 3.0])
    return jnp.linalg.cholesky(variances)


def fixed():
    variances = jnp.array([1.0, 2.0, 3.0])
    return jnp.linalg.cholesky(jnp.diag(variances)).block_until_ready()
