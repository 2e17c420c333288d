"""Passed `jax.jvp` a tangent whose shape differs from its primal.

Each tangent is a direction in the input space, so it has the primal's shape.
The fix uses a tangent of the same shape.
"""
import jax
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "19c483a443f69a26"
TAGS = ["jvp", "autodiff", "shapes"]
MESSAGE_CONTAINS = "jvp called with different primal and tangent shapes"


def trigger():
    x = jnp.arange(3.0)
    return jax.jvp(jnp.sin, (x,), (jnp.ones(2),))


def fixed():
    x = jnp.arange(3.0)
    return jax.block_until_ready(jax.jvp(jnp.sin, (x,), (jnp.ones(3),)))
