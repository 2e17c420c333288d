"""Called `jnp.take_along_axis` with indices of lower rank than the array.

take_along_axis pairs every index with a position of the array, so both need the same number of dimensions.
The fix adds the missing axis to the indices (`idx[:, None]`).
"""
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "d23851c70ed5a795"
TAGS = ["indexing", "shapes"]
MESSAGE_CONTAINS = "indices and arr must have the same number of dimensions"


def trigger():
    logits = jnp.arange(12.0).reshape(4, 3)
    labels = jnp.array([0, 2, 1, 0])
    return jnp.take_along_axis(logits, labels, axis=1)


def fixed():
    logits = jnp.arange(12.0).reshape(4, 3)
    labels = jnp.array([0, 2, 1, 0])
    return jnp.take_along_axis(logits, labels[:, None], axis=1)[:, 0].block_until_ready()
