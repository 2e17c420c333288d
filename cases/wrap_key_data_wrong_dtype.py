"""Wrapped key data that is not uint32 (a float array read back from a file).

Key data is raw uint32 words; other dtypes are refused rather than reinterpreted.
The fix converts the stored words to uint32 before wrapping.
"""
import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "4d2999bd6aabf333"
TAGS = ["random", "prng", "keys", "dtypes"]
MESSAGE_CONTAINS = "JAX encountered invalid PRNG key data: expected key_data.dtype = uint32"


def trigger():
    saved = jnp.array([0.0, 42.0])  # e.g. loaded from a float CSV column
    return jax.random.wrap_key_data(saved)


def fixed():
    saved = jnp.array([0.0, 42.0])
    key = jax.random.wrap_key_data(saved.astype(jnp.uint32))
    return jax.random.normal(key, (2,)).block_until_ready()
