"""Gave `lax.cond` a boolean vector as the predicate.

`lax.cond` picks one branch for the whole computation, so the predicate must be a scalar.
For elementwise selection, the fix uses `jnp.where`.
"""
import jax
import jax.numpy as jnp
from jax import lax

EXPECTED = "TypeError"
ERROR_ID = "47c641dc06cd7659"
TAGS = ["control_flow", "cond", "shapes"]
MESSAGE_CONTAINS = "Pred must be a scalar"


def trigger():
    x = jnp.array([-1.0, 2.0])
    return lax.cond(x > 0, lambda v: v, lambda v: -v, x)


def fixed():
    x = jnp.array([-1.0, 2.0])
    return jnp.where(x > 0, x, -x).block_until_ready()
