"""Passed the same position twice to `jnp.expand_dims`.

Each new axis needs its own position in the output; (0, 0) names one position twice.
The fix lists distinct positions, (0, 1).
"""
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "43e8c352542bbdf9"
TAGS = ["shapes"]
MESSAGE_CONTAINS = "repeated axis in lax.expand_dims"


def trigger():
    image = jnp.ones((28, 28))
    return jnp.expand_dims(image, (0, 0))


def fixed():
    image = jnp.ones((28, 28))
    return jnp.expand_dims(image, (0, 1)).block_until_ready()
