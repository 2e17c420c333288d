"""Wrote an update larger than the target with `lax.dynamic_update_slice`.

The update must fit inside the operand in every dimension.
The fix writes a slice of the update that fits (or grows the buffer first).
"""
import jax.numpy as jnp
from jax import lax

EXPECTED = "TypeError"
ERROR_ID = "0138f2168cb35704"
TAGS = ["slicing", "lax", "shapes"]
MESSAGE_CONTAINS = "dynamic_update_slice update shape must be smaller than operand shape"


def trigger():
    buffer = jnp.zeros(4)
    chunk = jnp.ones(6)
    return lax.dynamic_update_slice(buffer, chunk, (0,))


def fixed():
    buffer = jnp.zeros(4)
    chunk = jnp.ones(6)
    return lax.dynamic_update_slice(buffer, chunk[:4], (0,)).block_until_ready()
