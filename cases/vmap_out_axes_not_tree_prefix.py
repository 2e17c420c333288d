"""Gave vmap an `out_axes` tuple with more entries than the function returns.

`out_axes` must be a pytree prefix of the output; a 3-tuple cannot match a 2-tuple.
The fix supplies one axis per output.
"""
import jax
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "90b476e88fe9608f"
TAGS = ["vmap", "out_axes", "pytrees"]
MESSAGE_CONTAINS = "vmap out_axes specification must be a tree prefix of the corresponding value"


def trigger():
    f = jax.vmap(lambda x: (x, x ** 2), out_axes=(0, 0, 0))
    return f(jnp.arange(3.0))


def fixed():
    f = jax.vmap(lambda x: (x, x ** 2), out_axes=(0, 0))
    return jax.block_until_ready(f(jnp.arange(3.0)))
