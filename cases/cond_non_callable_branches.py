"""Passed values instead of functions as the branches of `lax.cond`.

`lax.cond(pred, true_fun, false_fun, *operands)` takes callables, unlike `jnp.where`.
The fix wraps the branches in functions (or uses `jnp.where` to select values).
"""
import jax
import jax.numpy as jnp
from jax import lax

EXPECTED = "TypeError"
ERROR_ID = "c02532f60e1f461d"
TAGS = ["control_flow", "cond"]
MESSAGE_CONTAINS = "lax.cond: true_fun and false_fun arguments should be callable"


def trigger():
    x = jnp.arange(3.0)
    return lax.cond(x.sum() > 1, x * 2, x / 2)


def fixed():
    x = jnp.arange(3.0)
    return lax.cond(x.sum() > 1, lambda v: v * 2, lambda v: v / 2, x).block_until_ready()
