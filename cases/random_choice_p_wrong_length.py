"""Gave `jax.random.choice` probabilities `p` whose length differs from the population.

`p` must be one-dimensional with one probability per candidate along the sampled axis.
The fix gives five probabilities for five candidates.
"""
import jax
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "2b8e881983ae7d12"
TAGS = ["random", "shapes"]
MESSAGE_CONTAINS = "p must be None or a 1D vector with the same size as a.shape[axis]"


def trigger():
    key = jax.random.key(0)
    weights = jnp.array([0.1, 0.2, 0.3, 0.4])
    return jax.random.choice(key, 5, shape=(3,), p=weights)


def fixed():
    key = jax.random.key(0)
    weights = jnp.array([0.1, 0.2, 0.3, 0.2, 0.2])
    return jax.random.choice(key, 5, shape=(3,), p=weights).block_until_ready()
