"""Asked vmap to map over axis 1 of an argument that only has one dimension.

`in_axes` must name an existing axis of every mapped argument.
The fix maps over axis 0 (or passes an argument that actually has a second axis).
"""
import jax
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "60992bc2ac488e28"
TAGS = ["vmap", "in_axes"]
MESSAGE_CONTAINS = "vmap was requested to map its argument along axis 1, which implies that its rank should be at least 2"


def trigger():
    return jax.vmap(jnp.sum, in_axes=1)(jnp.arange(3.0))


def fixed():
    return jax.vmap(jnp.sum, in_axes=1)(jnp.ones((4, 3))).block_until_ready()
