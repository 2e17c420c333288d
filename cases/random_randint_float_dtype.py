"""Requested a float dtype from `jax.random.randint`.

randint only produces integer dtypes; floats come from `uniform`.
The fix samples integers and casts, or uses `jax.random.uniform`.
"""
import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "c58f73f7587597a2"
TAGS = ["random", "dtypes"]
MESSAGE_CONTAINS = "randint only accepts integer dtypes, got float32"


def trigger():
    return jax.random.randint(jax.random.key(0), (4,), 0, 10, dtype=jnp.float32)


def fixed():
    ints = jax.random.randint(jax.random.key(0), (4,), 0, 10, dtype=jnp.int32)
    return ints.astype(jnp.float32).block_until_ready()
