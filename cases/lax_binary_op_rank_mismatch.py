"""Called a `lax` binary op on arrays of different ranks, expecting NumPy broadcasting.

`lax` ops only broadcast dimensions of size 1 between arrays of equal rank; they never add leading axes.
The fix uses the `jax.numpy` function (which broadcasts like NumPy), or reshapes the smaller operand first.
"""
import jax.numpy as jnp
from jax import lax

EXPECTED = "TypeError"
ERROR_ID = "f66e901c1ff220db"
TAGS = ["lax", "shapes", "broadcasting"]
MESSAGE_CONTAINS = "arrays must have the same number of dimensions"


def trigger():
    x = jnp.ones((5, 2))
    bias = jnp.arange(2.0)
    return lax.add(x, bias)


def fixed():
    x = jnp.ones((5, 2))
    bias = jnp.arange(2.0)
    return jnp.add(x, bias).block_until_ready()
