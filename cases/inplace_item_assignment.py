"""Assigned into a JAX array in place (`x[0] = ...`), NumPy style.

JAX arrays are immutable. The functional equivalent is `x.at[idx].set(value)`,
which returns an updated copy (and is done in place under jit when possible).
"""
import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "8ceddd6346ceb709"
TAGS = ["indexing", "array", "immutability"]
MESSAGE_CONTAINS = "JAX arrays are immutable and do not support in-place item assignment"


def trigger():
    x = jnp.zeros(3)
    x[0] = 1.0


def fixed():
    x = jnp.zeros(3)
    x = x.at[0].set(1.0)
    return x.block_until_ready()
