"""Took `jax.grad` of a function that returns an integer (a count of correct predictions).

An integer output is piecewise constant; grad only differentiates float outputs.
The fix differentiates a smooth float surrogate and keeps the count for reporting.
"""
import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "6c2dc1e88e51e55c"
TAGS = ["grad", "autodiff", "dtypes"]
MESSAGE_CONTAINS = "grad requires real-valued outputs"


def trigger():
    def correct(w, x, y):
        return jnp.sum((x @ w > 0) == y)

    return jax.grad(correct)(jnp.ones(3), jnp.ones((4, 3)), jnp.array([True, False, True, True]))


def fixed():
    def loss(w, x, y):
        return jnp.mean(jax.nn.softplus(-(2 * y - 1) * (x @ w)))

    return jax.grad(loss)(jnp.ones(3), jnp.ones((4, 3)), jnp.array([True, False, True, True])).block_until_ready()
