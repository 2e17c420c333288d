"""Called the pullback from `jax.vjp` with one cotangent for a function that returns a pair.

The cotangent must have the output's pytree structure.
The fix passes a tuple of two cotangents.
"""
import jax
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "93189bca70b3438d"
TAGS = ["vjp", "autodiff", "pytrees"]
MESSAGE_CONTAINS = "The argument to a VJP function returned by `jax.vjp` must match the pytree"


def trigger():
    (loss, aux), pullback = jax.vjp(lambda w: (jnp.sum(w ** 2), w.mean()), jnp.arange(3.0))
    return pullback(1.0)


def fixed():
    (loss, aux), pullback = jax.vjp(lambda w: (jnp.sum(w ** 2), w.mean()), jnp.arange(3.0))
    return jax.block_until_ready(pullback((1.0, 0.0)))
