"""Wrapped raw key data whose trailing shape does not fit the PRNG implementation.

The default threefry implementation stores a key as two uint32 words; four words are another implementation's key.
The fix wraps data of shape `(..., 2)`, such as what `jax.random.key_data` returned for a threefry key.
"""
import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "2916c4c88e4c2267"
TAGS = ["random", "prng", "keys"]
MESSAGE_CONTAINS = "JAX encountered invalid PRNG key data: expected key_data.shape to end with (2,)"


def trigger():
    saved = jnp.array([0, 42, 7, 1], dtype=jnp.uint32)
    key = jax.random.wrap_key_data(saved)
    return jax.random.normal(key, (3,))


def fixed():
    saved = jax.random.key_data(jax.random.key(42))  # uint32[2]
    key = jax.random.wrap_key_data(saved)
    return jax.random.normal(key, (3,)).block_until_ready()
