"""Called `lax.cumsum` with an axis the array does not have.

The axis must be within the operand's rank.
The fix accumulates along axis 0 of the vector.
"""
import jax.numpy as jnp
from jax import lax

EXPECTED = "ValueError"
ERROR_ID = "ca7b8cf3ee64348d"
TAGS = ["lax", "axes", "cumulative"]
MESSAGE_CONTAINS = "is out of bounds for array of shape"


def trigger():
    rewards = jnp.ones(5)
    return lax.cumsum(rewards, axis=1)


def fixed():
    rewards = jnp.ones(5)
    return lax.cumsum(rewards, axis=0).block_until_ready()
