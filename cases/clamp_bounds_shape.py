"""Called `lax.clamp` with bounds whose shape is neither scalar nor the operand's.

lax.clamp does not broadcast: min and max must be scalars or have exactly the operand's shape.
The fix uses `jnp.clip`, which broadcasts its bounds.
"""
import jax.numpy as jnp
from jax import lax

EXPECTED = "TypeError"
ERROR_ID = "57f38b30e2350006"
TAGS = ["lax", "shapes", "broadcasting"]
MESSAGE_CONTAINS = "clamp requires min.shape == operand.shape or min.shape == ()"


def trigger():
    x = jnp.ones((4, 3))
    low = jnp.zeros(3)
    return lax.clamp(low, x, 2.0)


def fixed():
    x = jnp.ones((4, 3))
    low = jnp.zeros(3)
    return jnp.clip(x, low, 2.0).block_until_ready()
