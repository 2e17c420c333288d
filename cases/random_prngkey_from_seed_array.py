"""Passed an array of seeds to the legacy `jax.random.PRNGKey`.

PRNGKey builds one key from one scalar seed. For many keys, vmap over the seeds
(or split one key). The fix vmaps `jax.random.key` over the seed array.
"""
import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "26e37073a7407d07"
TAGS = ["random", "prng_key", "legacy"]
MESSAGE_CONTAINS = "PRNGKey accepts a scalar seed, but was given an array of shape (3,) != ()"


def trigger():
    return jax.random.PRNGKey(jnp.arange(3))


def fixed():
    keys = jax.vmap(jax.random.key)(jnp.arange(3))
    return jax.vmap(jax.random.normal)(keys).block_until_ready()
