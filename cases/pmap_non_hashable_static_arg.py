"""Passed a list as a static (broadcasted) argument to `jax.pmap`.

Static arguments are part of the compilation cache key, so they must be hashable.
The fix passes a tuple instead of a list.
"""
import jax
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "6c56b6dd74150b4a"
TAGS = ["pmap", "static_args", "tracing"]
MESSAGE_CONTAINS = "Non-hashable static arguments are not supported"


def _weighted(x, weights):
    return x * weights[0] + weights[1]


def trigger():
    f = jax.pmap(_weighted, static_broadcasted_argnums=1)
    return f(jnp.arange(8.0), [2.0, 1.0])


def fixed():
    f = jax.pmap(_weighted, static_broadcasted_argnums=1)
    return f(jnp.arange(8.0), (2.0, 1.0)).block_until_ready()
