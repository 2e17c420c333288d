"""Indexed an array with a Python float (e.g. the result of `/` division).

Indices must be integers or booleans; `n / 2` is a float even when it looks whole.
The fix uses floor division `//`.
"""
import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "d368d02aaa70667e"
TAGS = ["indexing", "dtypes"]
MESSAGE_CONTAINS = "Indexer must have integer or boolean type, got indexer with type float"


def trigger():
    x = jnp.arange(10)
    return x[len(x) / 2]


def fixed():
    x = jnp.arange(10)
    return x[len(x) // 2].block_until_ready()
