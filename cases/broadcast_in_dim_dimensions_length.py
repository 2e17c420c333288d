"""Gave `lax.broadcast_in_dim` a `broadcast_dimensions` tuple longer than the operand's rank.

broadcast_dimensions says, for each operand axis, which output axis it becomes; it has one entry per operand axis.
The fix maps the single axis of the vector to output axis 1.
"""
import jax.numpy as jnp
from jax import lax

EXPECTED = "TypeError"
ERROR_ID = "76676a98313fa3af"
TAGS = ["lax", "broadcasting", "shapes"]
MESSAGE_CONTAINS = "broadcast_in_dim broadcast_dimensions must have length equal to operand ndim"


def trigger():
    bias = jnp.arange(4.0)
    return lax.broadcast_in_dim(bias, (3, 4), (0, 1))


def fixed():
    bias = jnp.arange(4.0)
    return lax.broadcast_in_dim(bias, (3, 4), (1,)).block_until_ready()
