"""Passed a Python list directly to a `jax.numpy` reduction.

Unlike NumPy, `jax.numpy` functions refuse lists/tuples (to avoid silent per-element tracing).
The fix converts the list with `jnp.asarray` first.
"""
import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "3f111595e735c40c"
TAGS = ["dtypes", "numpy"]
MESSAGE_CONTAINS = "sum requires ndarray or scalar arguments, got <class 'list'> at position 0"


def trigger():
    return jnp.sum([1.0, 2.0, 3.0])


def fixed():
    return jnp.sum(jnp.asarray([1.0, 2.0, 3.0])).block_until_ready()
