"""Asked `lax.dynamic_slice` for a window larger than the array.

The slice sizes are static and must fit inside the operand, whatever the start index.
The fix asks for a window no larger than the axis (start indices are clamped to keep it inside).
"""
import jax.numpy as jnp
from jax import lax

EXPECTED = "TypeError"
ERROR_ID = "4a4c31d97af96182"
TAGS = ["slicing", "shapes", "lax"]
MESSAGE_CONTAINS = "slice slice_sizes must be less than or equal to operand shape"


def trigger():
    signal = jnp.arange(10.0)
    return lax.dynamic_slice(signal, (4,), (16,))


def fixed():
    signal = jnp.arange(10.0)
    return lax.dynamic_slice(signal, (4,), (6,)).block_until_ready()
