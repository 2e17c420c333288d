"""Called `jnp.stack` on an empty list.

Stacking needs at least one array to know the shape and dtype of the result.
The fix stacks only when there is something to stack.
"""
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "be2414b5db0627e7"
TAGS = ["stack", "shapes"]
MESSAGE_CONTAINS = "Need at least one array to stack"


def trigger():
    episodes = []
    return jnp.stack([e["reward"] for e in episodes])


def fixed():
    episodes = [{"reward": jnp.float32(1.0)}, {"reward": jnp.float32(0.5)}]
    return jnp.stack([e["reward"] for e in episodes]).block_until_ready()
