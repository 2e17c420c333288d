"""Passed the whole output of `jax.random.split` (a batch of keys) to a sampler.

Samplers accept a single key; a key array of shape (2,) is a batch of keys.
The fix unpacks the split keys (or vmaps the sampler over the key batch).
"""
import jax
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "759d462cd4a42882"
TAGS = ["random", "prng_key", "shapes"]
MESSAGE_CONTAINS = "normal accepts a single key, but was given a key array of shape (2,) != ()"


def trigger():
    keys = jax.random.split(jax.random.key(0))
    return jax.random.normal(keys, (3,))


def fixed():
    key, subkey = jax.random.split(jax.random.key(0))
    batch = jax.vmap(lambda k: jax.random.normal(k, (3,)))(jax.random.split(key, 4))
    return jax.random.normal(subkey, (3,)).block_until_ready(), batch.block_until_ready()
