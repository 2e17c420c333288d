"""A `lax.while_loop` body returned a single value for a `(i, acc)` tuple carry.

body_fun must return a carry with exactly the same pytree structure as `init_val`.
The fix returns the full `(i + 1, acc * 2)` tuple.
"""
import jax
import jax.numpy as jnp
from jax import lax

EXPECTED = "TypeError"
ERROR_ID = "22c407c4bd89c96c"
TAGS = ["control_flow", "while_loop", "pytrees"]
MESSAGE_CONTAINS = "while_loop body function carry input and carry output must have the same pytree structure"


def trigger():
    cond = lambda c: c[0] < 5
    body = lambda c: c[1] * 2
    return lax.while_loop(cond, body, (0, jnp.float32(1.0)))


def fixed():
    cond = lambda c: c[0] < 5
    body = lambda c: (c[0] + 1, c[1] * 2)
    return jax.block_until_ready(lax.while_loop(cond, body, (0, jnp.float32(1.0))))
