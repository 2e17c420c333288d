"""Asked `jnp.broadcast_to` for a shape with fewer dimensions than the array.

Broadcasting can only add or stretch axes, never drop them.
The fix reduces the extra axis first (here a sum over rows), or broadcasts to a shape of at least the same rank.
"""
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "135c551f4144fede"
TAGS = ["broadcasting", "shapes"]
MESSAGE_CONTAINS = "Cannot broadcast to shape with fewer dimensions"


def trigger():
    per_example = jnp.ones((4, 3))
    return jnp.broadcast_to(per_example, (3,))


def fixed():
    per_example = jnp.ones((4, 3))
    return per_example.sum(axis=0).block_until_ready()
