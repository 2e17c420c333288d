"""Passed the result of calling a function, not the function, to `jax.jit`.

Transformations take a callable; `jax.jit(loss(params))` hands over an array.
The fix passes the function itself and calls the jitted version.
"""
import jax
import jax.numpy as jnp


def loss(w):
    return jnp.sum(w ** 2)


EXPECTED = "TypeError"
ERROR_ID = "4474371a23a33182"
TAGS = ["jit", "api"]
MESSAGE_CONTAINS = "Expected a callable value, got"


def trigger():
    w = jnp.ones(3)
    fast_loss = jax.jit(loss(w))
    return fast_loss


def fixed():
    w = jnp.ones(3)
    fast_loss = jax.jit(loss)
    return fast_loss(w).block_until_ready()
