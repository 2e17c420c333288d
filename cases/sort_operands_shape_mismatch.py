"""Sorted keys and values together with `lax.sort` when they have different shapes.

Multi-operand `lax.sort` permutes all operands the same way, so their shapes must be equal.
The fix gives the values the same shape as the keys.
"""
import jax
import jax.numpy as jnp
from jax import lax

EXPECTED = "TypeError"
ERROR_ID = "d58b1418efd191e8"
TAGS = ["lax", "sort", "shapes"]
MESSAGE_CONTAINS = "Arguments to sort must have equal shapes, got: (4,) (4, 1)"


def trigger():
    keys = jnp.array([3.0, 1.0, 2.0, 0.0])
    return lax.sort((keys, jnp.arange(4).reshape(4, 1)), num_keys=1)


def fixed():
    keys = jnp.array([3.0, 1.0, 2.0, 0.0])
    return jax.block_until_ready(lax.sort((keys, jnp.arange(4)), num_keys=1))
