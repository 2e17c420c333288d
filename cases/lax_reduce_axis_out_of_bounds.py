"""Asked `lax.reduce` to reduce an axis the operand does not have (or a negative one).

lax.reduce takes non-negative axis indices smaller than the rank.
The fix names existing axes.
"""
import jax.numpy as jnp
from jax import lax

EXPECTED = "ValueError"
ERROR_ID = "0c2fdc6663270e95"
TAGS = ["reductions", "lax", "axes"]
MESSAGE_CONTAINS = "contains out-of-bounds indices for"


def trigger():
    x = jnp.arange(6.0).reshape(2, 3)
    return lax.reduce(x, 0.0, lax.add, (2,))


def fixed():
    x = jnp.arange(6.0).reshape(2, 3)
    return lax.reduce(x, 0.0, lax.add, (1,)).block_until_ready()
