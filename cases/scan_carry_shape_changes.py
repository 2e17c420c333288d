"""A `lax.scan` body returned a carry whose shape differs from the initial carry.

The carry must keep the same shape/dtype on every iteration; here a scalar becomes (2,).
The fix keeps the carry a scalar and emits the per-step vector as the scanned output.
"""
import jax
import jax.numpy as jnp
from jax import lax

EXPECTED = "TypeError"
ERROR_ID = "3e5551fa3e1432cc"
TAGS = ["control_flow", "scan", "shapes"]
MESSAGE_CONTAINS = "scan body function carry input and carry output must have equal types"


def trigger():
    def step(total, x):
        return jnp.stack([total, x]), None

    return lax.scan(step, jnp.float32(0.0), jnp.arange(3.0))


def fixed():
    def step(total, x):
        return total + x, jnp.stack([total, x])

    return jax.block_until_ready(lax.scan(step, jnp.float32(0.0), jnp.arange(3.0)))
