"""Gave `vmap` an `in_axes` dict keyed by parameter names.

in_axes is matched to the positional arguments: an int, None, or a tuple/list with one entry per argument.
The fix writes the tuple `(0, None)`.
"""
import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "663bf9ca9d3b3af9"
FORMER_ERROR_IDS = ["51b13cddfd99dafd"]  # before jax 0.12.1
TAGS = ["vmap", "in_axes"]
MESSAGE_CONTAINS = "vmap in_axes must be an int, None, or a tuple of entries corresponding to the positional arguments"


def trigger():
    predict = jax.vmap(lambda x, w: x @ w, in_axes={"x": 0, "w": None})
    return predict(jnp.ones((5, 3)), jnp.ones(3))


def fixed():
    predict = jax.vmap(lambda x, w: x @ w, in_axes=(0, None))
    return predict(jnp.ones((5, 3)), jnp.ones(3)).block_until_ready()
