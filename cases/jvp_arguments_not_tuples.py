"""Passed bare arrays to `jax.jvp` instead of tuples of primals and tangents.

jvp takes one tuple (or list) of primals, one entry per argument, and a matching tuple of tangents.
The fix wraps each in a one-element tuple.
"""
import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "9807cbb2e406bf26"
TAGS = ["jvp", "autodiff", "pytrees"]
MESSAGE_CONTAINS = "primal and tangent arguments to jax.jvp must be tuples or lists"


def trigger():
    x = jnp.arange(3.0)
    return jax.jvp(jnp.sin, x, jnp.ones(3))


def fixed():
    x = jnp.arange(3.0)
    return jax.block_until_ready(jax.jvp(jnp.sin, (x,), (jnp.ones(3),)))
