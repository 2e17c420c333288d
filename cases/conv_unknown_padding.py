"""Passed a Keras-style padding name ("causal") to `lax.conv`.

String paddings are only 'VALID', 'SAME' and 'SAME_LOWER'; anything else is given as (low, high) pairs per spatial axis.
The fix writes causal padding explicitly: kernel_size - 1 zeros on the left, none on the right.
"""
import jax.numpy as jnp
from jax import lax

EXPECTED = "RuntimeError"
ERROR_ID = "86fab834429a52a4"
TAGS = ["convolution", "lax", "padding"]
MESSAGE_CONTAINS = "Unrecognized padding type: expected 'VALID', 'SAME', or 'SAME_LOWER'"


def trigger():
    signal = jnp.ones((1, 1, 16))  # batch, channels, time
    kernel = jnp.ones((4, 1, 3))  # out, in, width
    return lax.conv(signal, kernel, (1,), "causal")


def fixed():
    signal = jnp.ones((1, 1, 16))
    kernel = jnp.ones((4, 1, 3))
    return lax.conv(signal, kernel, (1,), [(2, 0)]).block_until_ready()
