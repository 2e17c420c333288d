"""`lax.cond` branches returned different pytree structures (a tuple vs a single array).

Both branches of `lax.cond` must return identical pytree structure, shapes and dtypes.
The fix makes the false branch return a tuple too.
"""
import jax
import jax.numpy as jnp
from jax import lax

EXPECTED = "TypeError"
ERROR_ID = "5a12e3aaa47bc55e"
TAGS = ["control_flow", "cond", "pytrees"]
MESSAGE_CONTAINS = "cond branch outputs must have the same pytree structure"


def trigger():
    x = jnp.float32(2.0)
    return lax.cond(x > 0, lambda v: (v, v * 2), lambda v: v, x)


def fixed():
    x = jnp.float32(2.0)
    return jax.block_until_ready(lax.cond(x > 0, lambda v: (v, v * 2), lambda v: (v, -v), x))
