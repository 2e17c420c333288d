"""Passed a scalar as `xs` to `lax.scan`.

scan slices every leaf of xs along axis 0; a scalar has no axis to slice.
The fix passes the constant through the closure (or the carry) and scans over an array.
"""
import jax
import jax.numpy as jnp
from jax import lax

EXPECTED = "ValueError"
ERROR_ID = "2baeb213c1884d47"
TAGS = ["scan", "control_flow", "shapes"]
MESSAGE_CONTAINS = "scan got value with no leading axis to scan over"


def trigger():
    def step(total, inputs):
        x, scale = inputs
        return total + scale * x, None

    return lax.scan(step, 0.0, (jnp.arange(4.0), 2.0))


def fixed():
    scale = 2.0

    def step(total, x):
        return total + scale * x, None

    return jax.block_until_ready(lax.scan(step, 0.0, jnp.arange(4.0)))
