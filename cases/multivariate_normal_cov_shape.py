"""Gave `jax.random.multivariate_normal` a covariance whose size differs from the mean's.

For a mean of length n the covariance must be (..., n, n).
The fix builds the covariance from the same dimension as the mean.
"""
import jax
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "e0d145a41f31ac96"
TAGS = ["random", "shapes"]
MESSAGE_CONTAINS = "multivariate_normal requires cov.shape == (..., n, n)"


def trigger():
    mean = jnp.zeros(3)
    cov = jnp.eye(2)
    return jax.random.multivariate_normal(jax.random.key(0), mean, cov)


def fixed():
    mean = jnp.zeros(3)
    cov = jnp.eye(mean.shape[-1])
    return jax.random.multivariate_normal(jax.random.key(0), mean, cov).block_until_ready()
