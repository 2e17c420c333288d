"""Called `jnp.concatenate` on an empty list (no chunk was collected).

With no arrays there is no shape or dtype for the result.
The fix handles the empty case before concatenating (or starts from an empty array of the right shape).
"""
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "96d52596b46caf23"
TAGS = ["concatenate", "shapes"]
MESSAGE_CONTAINS = "Need at least one array to concatenate"


def trigger():
    data = jnp.arange(10.0)
    chunks = [c for c in jnp.split(data, 5) if c.sum() > 100]
    return jnp.concatenate(chunks)


def fixed():
    data = jnp.arange(10.0)
    chunks = [c for c in jnp.split(data, 5) if c.sum() > 100]
    return jnp.concatenate(chunks) if chunks else jnp.zeros((0,), data.dtype)
