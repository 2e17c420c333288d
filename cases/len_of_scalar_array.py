"""Called `len()` on a 0-dimensional JAX array (a reduced loss).

A scalar array has no length, like a NumPy 0-d array.
The fix uses `.size` (or `.shape`) to ask how many elements there are.
"""
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "7abd340f759f2d5d"
TAGS = ["arrays", "shapes"]
MESSAGE_CONTAINS = "len() of unsized object"


def trigger():
    loss = jnp.mean(jnp.arange(4.0))
    return len(loss)


def fixed():
    loss = jnp.mean(jnp.arange(4.0))
    return loss.size
