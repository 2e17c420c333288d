"""Gave `lax.reduce` an array as the initial value.

The init value is the identity of the reduction for one element, a scalar per operand.
The fix passes the scalar identity (0 for a sum).
"""
import jax.numpy as jnp
from jax import lax

EXPECTED = "ValueError"
ERROR_ID = "71112dc409625b6b"
TAGS = ["reductions", "lax"]
MESSAGE_CONTAINS = "reduce found non-scalar initial value"


def trigger():
    x = jnp.arange(6.0).reshape(2, 3)
    return lax.reduce(x, jnp.zeros(3), lax.add, (0,))


def fixed():
    x = jnp.arange(6.0).reshape(2, 3)
    return lax.reduce(x, 0.0, lax.add, (0,)).block_until_ready()
