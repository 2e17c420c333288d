"""Called `lax.scatter` with an `updates` array whose rank does not fit the dimension numbers.

updates must have one axis per scatter index (batch) dimension plus one per `update_window_dims` entry.
The fix gives one scalar update per index, matching `update_window_dims=()`.
"""
import jax.numpy as jnp
from jax import lax

EXPECTED = "TypeError"
ERROR_ID = "167e9021cc056f68"
TAGS = ["scatter", "lax", "shapes"]
MESSAGE_CONTAINS = "Updates tensor must be of rank"


def trigger():
    x = jnp.zeros(5)
    idx = jnp.array([[1], [3]])
    dnums = lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,),
                                        scatter_dims_to_operand_dims=(0,))
    return lax.scatter(x, idx, jnp.ones((2, 1)), dnums)


def fixed():
    x = jnp.zeros(5)
    idx = jnp.array([[1], [3]])
    dnums = lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,),
                                        scatter_dims_to_operand_dims=(0,))
    return lax.scatter(x, idx, jnp.ones(2), dnums).block_until_ready()
