"""Concatenated a 2-D array with a 1-D array.

`jnp.concatenate` requires all inputs to have the same number of dimensions.
The fix adds the missing leading axis to the row before concatenating.
"""
import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "a46f50e8138777bb"
TAGS = ["shapes", "concatenate", "numpy"]
MESSAGE_CONTAINS = "Cannot concatenate arrays with different numbers of dimensions"


def trigger():
    return jnp.concatenate([jnp.ones((2, 3)), jnp.zeros(3)])


def fixed():
    return jnp.concatenate([jnp.ones((2, 3)), jnp.zeros(3)[None, :]]).block_until_ready()
