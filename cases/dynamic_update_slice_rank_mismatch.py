"""Wrote a 1-D update into a 2-D array with `lax.dynamic_update_slice`.

The update must have the operand's rank (a row of a matrix is shaped (1, n)).
The fix adds the missing axis to the update.
"""
import jax.numpy as jnp
from jax import lax

EXPECTED = "TypeError"
ERROR_ID = "a1e145ca9cd170ba"
TAGS = ["slicing", "lax", "shapes"]
MESSAGE_CONTAINS = "dynamic_update_slice update must have the same rank as operand"


def trigger():
    table = jnp.zeros((4, 3))
    row = jnp.ones(3)
    return lax.dynamic_update_slice(table, row, (2, 0))


def fixed():
    table = jnp.zeros((4, 3))
    row = jnp.ones(3)
    return lax.dynamic_update_slice(table, row[None, :], (2, 0)).block_until_ready()
