"""Passed an array of start positions as one start index of `lax.dynamic_slice`.

Each start index is a scalar; slicing at many positions is a gather, or a vmap over dynamic_slice.
The fix vmaps the slice over the start positions.
"""
import jax
import jax.numpy as jnp
from jax import lax

EXPECTED = "TypeError"
ERROR_ID = "97160083318359af"
TAGS = ["slicing", "lax", "vmap"]
MESSAGE_CONTAINS = "start_indices arguments to dynamic_slice must be scalars"


def trigger():
    signal = jnp.arange(10.0)
    starts = jnp.array([0, 3, 6])
    return lax.dynamic_slice(signal, (starts,), (4,))


def fixed():
    signal = jnp.arange(10.0)
    starts = jnp.array([0, 3, 6])
    windows = jax.vmap(lambda s: lax.dynamic_slice(signal, (s,), (4,)))(starts)
    return windows.block_until_ready()
