"""Squeezed an axis whose size is not 1.

`jnp.squeeze(x, axis)` may only remove length-1 dimensions.
The fix squeezes the axis that actually has size 1.
"""
import jax
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "6067c1eac07f8764"
TAGS = ["shapes", "numpy"]
MESSAGE_CONTAINS = "cannot select an axis to squeeze out which has size not equal to one"


def trigger():
    return jnp.squeeze(jnp.ones((3, 1)), axis=0)


def fixed():
    return jnp.squeeze(jnp.ones((3, 1)), axis=1).block_until_ready()
