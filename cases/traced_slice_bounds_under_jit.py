"""Sliced with traced start/stop (`x[i:i + 2]`) inside jit.

Python slices must have static bounds because they determine the output shape.
The fix uses `lax.dynamic_slice`, which takes a traced start but a static size.
"""
import jax
import jax.numpy as jnp
from jax import lax

EXPECTED = "IndexError"
ERROR_ID = "a956ff1b6b2f0d43"
TAGS = ["indexing", "jit", "slicing"]
MESSAGE_CONTAINS = "Slice entries must be static integers"


def trigger():
    return jax.jit(lambda x, i: x[i:i + 2])(jnp.arange(6.0), 1)


def fixed():
    f = jax.jit(lambda x, i: lax.dynamic_slice(x, (i,), (2,)))
    return f(jnp.arange(6.0), 1).block_until_ready()
