"""Called `lax.index_in_dim` with a static index past the end of the axis.

Unlike `x[10]` (which JAX clamps silently), lax.index_in_dim bounds-checks static indices.
The fix uses a valid index (negative indices count from the end).
"""
import jax
import jax.numpy as jnp
from jax import lax

EXPECTED = "IndexError"
ERROR_ID = "3e4d77731516509f"
TAGS = ["indexing", "lax", "slicing"]
MESSAGE_CONTAINS = "index 6 is out of bounds for axis 0 with size 6"


def trigger():
    return lax.index_in_dim(jnp.arange(6.0), 6, keepdims=False)


def fixed():
    return lax.index_in_dim(jnp.arange(6.0), -1, keepdims=False).block_until_ready()
