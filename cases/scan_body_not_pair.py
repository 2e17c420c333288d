"""A `lax.scan` body returned only the new carry instead of a `(carry, y)` pair.

The scan body must return a 2-tuple `(new_carry, per_step_output)`.
The fix returns `(carry, None)` when there is no per-step output.
"""
import jax
import jax.numpy as jnp
from jax import lax

EXPECTED = "TypeError"
ERROR_ID = "5be5fc1edb7505d9"
TAGS = ["control_flow", "scan"]
MESSAGE_CONTAINS = "scan body output must be a pair"


def trigger():
    return lax.scan(lambda c, x: c + x, jnp.float32(0.0), jnp.arange(4.0))


def fixed():
    total, _ = lax.scan(lambda c, x: (c + x, None), jnp.float32(0.0), jnp.arange(4.0))
    return total.block_until_ready()
