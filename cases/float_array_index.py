"""Indexed (gathered) with a float32 array of positions.

Array indices must have integer dtype; positions computed with float math need a cast.
The fix casts the index array with `.astype(jnp.int32)`.
"""
import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "9bed9074dafbb3a8"
TAGS = ["indexing", "dtypes", "gather"]
MESSAGE_CONTAINS = "Indexer must have integer or boolean type, got indexer with type float32"


def trigger():
    table = jnp.arange(10.0) * 10
    pos = jnp.floor(jnp.array([1.2, 3.7]))
    return table[pos]


def fixed():
    table = jnp.arange(10.0) * 10
    pos = jnp.floor(jnp.array([1.2, 3.7])).astype(jnp.int32)
    return table[pos].block_until_ready()
