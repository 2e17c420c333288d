"""A `lax.while_loop` cond_fun returned a boolean vector instead of a scalar.

cond_fun must return a scalar boolean; reduce vector conditions with `.any()`/`.all()`.
The fix uses `jnp.all`.
"""
import jax
import jax.numpy as jnp
from jax import lax

EXPECTED = "TypeError"
ERROR_ID = "4aa72f2bb09eca49"
TAGS = ["control_flow", "while_loop"]
MESSAGE_CONTAINS = "cond_fun must return a boolean scalar"


def trigger():
    return lax.while_loop(lambda v: v < 10, lambda v: v * 2, jnp.array([1.0, 3.0]))


def fixed():
    return lax.while_loop(lambda v: jnp.all(v < 10), lambda v: v * 2,
                          jnp.array([1.0, 3.0])).block_until_ready()
