"""Converted a new-style typed PRNG key to a NumPy array (e.g. to save it).

Typed keys cannot become NumPy arrays directly; their raw bits live in `key_data`.
The fix uses `jax.random.key_data` (and `wrap_key_data` to restore the key).
"""
import numpy as np

import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "e1a805c74a744c95"
TAGS = ["random", "prng_key", "numpy"]
MESSAGE_CONTAINS = "JAX array with PRNGKey dtype cannot be converted to a NumPy array"


def trigger():
    return np.asarray(jax.random.key(0))


def fixed():
    raw = np.asarray(jax.random.key_data(jax.random.key(0)))
    restored = jax.random.wrap_key_data(raw)
    return jax.random.normal(restored).block_until_ready()
