"""Called `lax.full` with an array as the fill value.

lax.full broadcasts a scalar; an array fill value is refused.
The fix uses `jnp.broadcast_to` (or `jnp.full`, which broadcasts an array fill value).
"""
import jax.numpy as jnp
from jax import lax

EXPECTED = "TypeError"
ERROR_ID = "761aeb2ae432e2e4"
TAGS = ["lax", "array_creation", "shapes"]
MESSAGE_CONTAINS = "full must be called with scalar fill_value"


def trigger():
    row = jnp.arange(3.0)
    return lax.full((4, 3), row)


def fixed():
    row = jnp.arange(3.0)
    return jnp.broadcast_to(row, (4, 3)).block_until_ready()
