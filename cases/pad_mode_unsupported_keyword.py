"""Passed `constant_values` to `jnp.pad` with a mode that does not use it.

Each mode accepts only its own keywords: `constant_values` belongs to mode "constant".
The fix drops the keyword (or switches to mode "constant").
"""
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "f160da11612eb765"
TAGS = ["padding", "numpy"]
MESSAGE_CONTAINS = "unsupported keyword arguments for mode 'edge'"


def trigger():
    x = jnp.arange(4.0)
    return jnp.pad(x, 2, mode="edge", constant_values=0.0)


def fixed():
    x = jnp.arange(4.0)
    return jnp.pad(x, 2, mode="edge").block_until_ready()
