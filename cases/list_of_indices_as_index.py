"""Indexed an array with a Python list of positions (`x[[0, 2]]`).

JAX rejects non-tuple sequences as indices because NumPy's meaning for them is ambiguous.
The fix converts the list to an array (`x[jnp.array(idx)]`).
"""
import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "df567536d088cbac"
TAGS = ["indexing", "numpy"]
MESSAGE_CONTAINS = "Using a non-tuple sequence for multidimensional indexing is not allowed"


def trigger():
    return jnp.arange(5.0)[[0, 2]]


def fixed():
    return jnp.arange(5.0)[jnp.array([0, 2])].block_until_ready()
