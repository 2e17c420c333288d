"""Reshaped with `-1` where the other sizes do not divide the number of elements.

`-1` is solved as size divided by the product of the given sizes, which must leave no remainder.
The fix picks sizes whose product divides the element count (6 = 2 x 3).
"""
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "cc3a3690c9f03ca3"
TAGS = ["shapes", "reshape"]
MESSAGE_CONTAINS = "does not evenly divide"


def trigger():
    return jnp.arange(6).reshape(4, -1)


def fixed():
    return jnp.arange(6).reshape(2, -1).block_until_ready()
