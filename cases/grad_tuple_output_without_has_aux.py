"""Returned `(loss, metrics)` from a function passed to `jax.grad` without `has_aux=True`.

Without `has_aux`, the whole output must be one scalar; a tuple is not.
The fix sets `has_aux=True` so the second element is passed through untouched.
"""
import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "fcbe1fef1dd246d4"
TAGS = ["grad", "autodiff", "has_aux"]
MESSAGE_CONTAINS = "Gradient only defined for scalar-output functions. Output was"


def _loss(w):
    l = jnp.sum(w ** 2)
    return l, jnp.max(w)


def trigger():
    return jax.grad(_loss)(jnp.ones(3))


def fixed():
    g, _ = jax.grad(_loss, has_aux=True)(jnp.ones(3))
    return g.block_until_ready()
