"""Took `jax.jacfwd` with respect to an integer array.

Forward-mode Jacobians need float (or, with holomorphic=True, complex) inputs.
The fix passes a float array.
"""
import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "9504120201183b93"
TAGS = ["autodiff", "jacobian", "dtypes"]
MESSAGE_CONTAINS = "jacfwd requires real-valued inputs"


def trigger():
    return jax.jacfwd(lambda x: x ** 2)(jnp.arange(3))


def fixed():
    return jax.jacfwd(lambda x: x ** 2)(jnp.arange(3.0)).block_until_ready()
