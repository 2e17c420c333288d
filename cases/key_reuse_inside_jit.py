"""With `jax.debug_key_reuse(True)`, used one PRNG key for two samplers inside jit.

The key-reuse checker marks a key consumed when a sampler uses it; a second use is an error.
The fix splits the key and gives each sampler its own subkey.
"""
import jax
import jax.numpy as jnp

EXPECTED = "jax.errors.KeyReuseError"
ERROR_ID = "ac53da3ad8c9da5c"
TAGS = ["random", "prng_key", "key_reuse"]
MESSAGE_CONTAINS = "argument 0 is already consumed"


def _noisy(key, x):
    return x + jax.random.normal(key, x.shape) + jax.random.uniform(key, x.shape)


def _noisy_split(key, x):
    k1, k2 = jax.random.split(key)
    return x + jax.random.normal(k1, x.shape) + jax.random.uniform(k2, x.shape)


def trigger():
    with jax.debug_key_reuse(True):
        return jax.jit(_noisy)(jax.random.key(0), jnp.zeros(3))


def fixed():
    with jax.debug_key_reuse(True):
        return jax.jit(_noisy_split)(jax.random.key(0), jnp.zeros(3)).block_until_ready()
