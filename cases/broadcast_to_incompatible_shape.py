"""Called `jnp.broadcast_to` with a target shape the input cannot broadcast to.

Broadcasting aligns trailing dimensions; a size-3 axis cannot be stretched to size 4.
The fix picks a target shape whose trailing dimension is 3.
"""
import jax
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "ae8a89b2b5a7e475"
TAGS = ["shapes", "broadcasting", "numpy"]
MESSAGE_CONTAINS = "Incompatible types for broadcasting: input type=float32[3] and requested type=float32[2,4]"


def trigger():
    return jnp.broadcast_to(jnp.arange(3.0), (2, 4))


def fixed():
    return jnp.broadcast_to(jnp.arange(3.0), (2, 3)).block_until_ready()
