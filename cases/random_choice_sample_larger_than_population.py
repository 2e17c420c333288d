"""Sampled 5 items without replacement from a population of 3 with `jax.random.choice`.

With `replace=False` the sample cannot be larger than the population.
The fix samples with replacement (or asks for at most 3 items).
"""
import jax
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "d6e35d2653ce07e8"
TAGS = ["random", "shapes"]
MESSAGE_CONTAINS = "Cannot take a larger sample (size 5) than population (size 3) when 'replace=False'"


def trigger():
    return jax.random.choice(jax.random.key(0), 3, shape=(5,), replace=False)


def fixed():
    return jax.random.choice(jax.random.key(0), 3, shape=(5,), replace=True).block_until_ready()
