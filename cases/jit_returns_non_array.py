"""Returned a non-JAX value (a Python string) from a jitted function.

Every leaf of a jit output pytree must be an array-like JAX type; strings are not.
The fix returns only arrays and keeps the label outside the jitted function.
"""
import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "5ae23bbfe9c55096"
TAGS = ["jit", "tracing", "pytrees"]
MESSAGE_CONTAINS = "which is not a valid JAX type"


def trigger():
    @jax.jit
    def stats(x):
        return {"mean": x.mean(), "label": "float32 stats"}

    return stats(jnp.arange(4.0))


def fixed():
    @jax.jit
    def stats(x):
        return {"mean": x.mean()}

    out = stats(jnp.arange(4.0))
    out["label"] = "float32 stats"
    return out["mean"].block_until_ready()
