"""Scanned over a tuple of arrays with different leading dimensions (3 and 4).

scan iterates over the leading axis of every leaf of `xs`, so all must share that length.
The fix trims the inputs to a common length.
"""
import jax
import jax.numpy as jnp
from jax import lax

EXPECTED = "ValueError"
ERROR_ID = "7838748457e415fe"
TAGS = ["control_flow", "scan", "shapes"]
MESSAGE_CONTAINS = "scan got values with different leading axis sizes: 3, 4"


def _step(c, xy):
    x, y = xy
    return c + x * y, None


def trigger():
    return lax.scan(_step, jnp.float32(0.0), (jnp.ones(3), jnp.ones(4)))


def fixed():
    out, _ = lax.scan(_step, jnp.float32(0.0), (jnp.ones(3), jnp.ones(4)[:3]))
    return out.block_until_ready()
