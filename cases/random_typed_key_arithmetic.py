"""Did integer arithmetic on a new-style typed key (`jax.random.key`) to derive a new seed.

Typed keys have an opaque `key<fry>` dtype that does not support `+`; old uint32 PRNGKey
tricks no longer apply. The fix derives keys with `jax.random.fold_in` (or `split`).
"""
import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "b15d19bdaa03dafb"
TAGS = ["random", "prng_key", "dtypes"]
MESSAGE_CONTAINS = "add does not accept dtypes key<fry>, int32"


def trigger():
    key = jax.random.key(0)
    step_key = key + 1
    return jax.random.uniform(step_key)


def fixed():
    key = jax.random.key(0)
    step_key = jax.random.fold_in(key, 1)
    return jax.random.uniform(step_key).block_until_ready()
