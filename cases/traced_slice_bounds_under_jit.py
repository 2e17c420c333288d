"""Sliced with traced start/stop (`x[i:i + 2]`) inside jit.

Python slices must have static bounds because they determine the output shape.
The fix uses `lax.dynamic_slice`, which takes a traced start but a static size.
"""
import jax
import jax.numpy as jnp
from jax import lax

EXPECTED = "IndexError"
ERROR_ID = "e02af0c266829c1b"
FORMER_ERROR_IDS = ["a956ff1b6b2f0d43"]  # before jax 0.12
TAGS = ["indexing", "jit", "slicing"]
# "Slice entries must be static integers" before jax 0.12, "Array slice indices must have static
# start/stop/step" since: what both say.
MESSAGE_CONTAINS = "at position 0"


def trigger():
    return jax.jit(lambda x, i: x[i:i + 2])(jnp.arange(6.0), 1)


def fixed():
    f = jax.jit(lambda x, i: lax.dynamic_slice(x, (i,), (2,)))
    return f(jnp.arange(6.0), 1).block_until_ready()
