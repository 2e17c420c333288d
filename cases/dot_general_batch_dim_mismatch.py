"""Batched `lax.dot_general` where lhs and rhs batch dimensions have different sizes.

Batch dimensions are matched elementwise, so they must be equal (here 2 vs 3).
The fix uses operands whose batch dimension agrees.
"""
import jax
import jax.numpy as jnp
from jax import lax

EXPECTED = "TypeError"
ERROR_ID = "5b3b9ae14ef8bf6b"
TAGS = ["shapes", "dot_general", "lax"]
MESSAGE_CONTAINS = "dot_general requires lhs batch dimensions and rhs batch dimensions to have the same shape"


def trigger():
    DIMS = (((2,), (1,)), ((0,), (0,)))  # contract lhs 2 / rhs 1, batch axis 0
    return lax.dot_general(jnp.ones((2, 3, 4)), jnp.ones((3, 4, 5)), DIMS)


def fixed():
    DIMS = (((2,), (1,)), ((0,), (0,)))
    return lax.dot_general(jnp.ones((2, 3, 4)), jnp.ones((2, 4, 5)), DIMS).block_until_ready()
