"""Asked `lax.top_k` for more elements than the axis has.

k must not exceed the size of the last axis.
The fix takes `min(k, n)`.
"""
import jax.numpy as jnp
from jax import lax

EXPECTED = "ValueError"
ERROR_ID = "f0b2a77e7918f2ec"
FORMER_ERROR_IDS = ["c77658f9bbc47144"]  # before jax 0.12.1
TAGS = ["lax", "sorting", "shapes"]
MESSAGE_CONTAINS = "k argument to top_k must be no larger than size along axis"


def trigger():
    scores = jnp.array([0.1, 0.7, 0.2])
    return lax.top_k(scores, 5)


def fixed():
    scores = jnp.array([0.1, 0.7, 0.2])
    values, indices = lax.top_k(scores, min(5, scores.shape[-1]))
    return indices.block_until_ready()
