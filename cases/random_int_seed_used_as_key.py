"""Passed a plain integer seed where `jax.random` expects a PRNG key.

jax.random functions take a key, not a seed; the seed must first go through `jax.random.key`.
The fix creates a key from the seed.
"""
import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "b37c014de9ddb313"
TAGS = ["random", "prng_key"]
MESSAGE_CONTAINS = "JAX encountered invalid PRNG key data: expected key_data to have ndim, shape, and dtype attributes"


def trigger():
    return jax.random.normal(42, (3,))


def fixed():
    return jax.random.normal(jax.random.key(42), (3,)).block_until_ready()
