"""Called `lax.select` with two cases of different shapes.

Unlike `jnp.where`, `lax.select` does not broadcast: pred and both cases must share one shape.
The fix broadcasts the scalar-like case explicitly (or uses `jnp.where`).
"""
import jax
import jax.numpy as jnp
from jax import lax

EXPECTED = "TypeError"
ERROR_ID = "3aad5513adffede8"
TAGS = ["lax", "shapes", "broadcasting"]
MESSAGE_CONTAINS = "select cases must have the same shapes, got [(1,), (4,)]."


def trigger():
    x = jnp.arange(-2.0, 2.0)
    return lax.select(x > 0, x, jnp.zeros(1))


def fixed():
    x = jnp.arange(-2.0, 2.0)
    return lax.select(x > 0, x, jnp.zeros_like(x)).block_until_ready()
