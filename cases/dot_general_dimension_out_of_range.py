"""Named a contracting dimension in `lax.dot_general` that the left operand does not have.

Dimension numbers are axis indices of each operand and must be in range.
The fix contracts axis 1 of the (2, 3) matrix with axis 0 of the (3, 4) one.
"""
import jax.numpy as jnp
from jax import lax

EXPECTED = "TypeError"
ERROR_ID = "4442f41436536afc"
TAGS = ["dot_general", "lax", "shapes"]
MESSAGE_CONTAINS = "dot_general requires lhs dimension numbers to be nonnegative and less than the number of axes"


def trigger():
    a = jnp.ones((2, 3))
    b = jnp.ones((3, 4))
    return lax.dot_general(a, b, (((2,), (0,)), ((), ())))


def fixed():
    a = jnp.ones((2, 3))
    b = jnp.ones((3, 4))
    return lax.dot_general(a, b, (((1,), (0,)), ((), ()))).block_until_ready()
