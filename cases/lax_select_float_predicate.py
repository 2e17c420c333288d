"""Passed a float mask as the predicate of `lax.select`.

The predicate (`which`) must be boolean (or an integer case index for select_n).
The fix compares to build a boolean mask.
"""
import jax.numpy as jnp
from jax import lax

EXPECTED = "TypeError"
ERROR_ID = "119d2a37a256d345"
TAGS = ["lax", "dtypes"]
MESSAGE_CONTAINS = "select `which` must be boolean or integer type"


def trigger():
    mask = jnp.array([1.0, 0.0, 1.0])
    return lax.select(mask, jnp.ones(3), jnp.zeros(3))


def fixed():
    mask = jnp.array([1.0, 0.0, 1.0])
    return lax.select(mask > 0.5, jnp.ones(3), jnp.zeros(3)).block_until_ready()
