"""Called `jnp.stack` on arrays of different shapes.

jnp.stack adds a new axis, so every input must have exactly the same shape.
The fix pads the shorter sequence to the common length first.
"""
import jax
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "af8af0552320ba00"
TAGS = ["shapes", "numpy", "stack"]
MESSAGE_CONTAINS = "All input arrays must have the same shape. Got (5,), (3,)."


def trigger():
    return jnp.stack([jnp.ones(5), jnp.ones(3)])


def fixed():
    a, b = jnp.ones(5), jnp.ones(3)
    return jnp.stack([a, jnp.pad(b, (0, a.shape[0] - b.shape[0]))]).block_until_ready()
