"""Called `int()` on a multi-element JAX array.

Only size-1 (scalar) arrays can be converted to Python scalars.
The fix selects a single element (or uses `.tolist()`) before converting.
"""
import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "dfacf018115464c4"
TAGS = ["dtypes", "array"]
MESSAGE_CONTAINS = "Only scalar arrays can be converted to Python scalars"


def trigger():
    counts = jnp.array([3, 1, 2])
    return int(counts)


def fixed():
    counts = jnp.array([3, 1, 2])
    return int(counts.sum())
