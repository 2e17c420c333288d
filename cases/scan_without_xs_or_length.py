"""Called `lax.scan` with `xs=None` and no `length`.

With nothing to scan over, scan cannot know how many steps to run.
The fix passes `length=`.
"""
import jax
import jax.numpy as jnp
from jax import lax

EXPECTED = "ValueError"
ERROR_ID = "055271cca3e7c477"
TAGS = ["scan", "control_flow"]
MESSAGE_CONTAINS = "scan got no values to scan over and `length` not provided"


def trigger():
    def step(x, _):
        return 0.9 * x, x

    return lax.scan(step, jnp.float32(1.0), None)


def fixed():
    def step(x, _):
        return 0.9 * x, x

    return jax.block_until_ready(lax.scan(step, jnp.float32(1.0), None, length=5))
