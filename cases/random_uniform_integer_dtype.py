"""Asked `jax.random.uniform` for integers.

`uniform` only draws floats; integer draws have their own function with integer bounds.
The fix uses `jax.random.randint`.
"""
import jax
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "96e092e5bd6fc68f"
TAGS = ["random", "dtypes"]
MESSAGE_CONTAINS = "dtype argument to `uniform` must be a float dtype"


def trigger():
    key = jax.random.key(0)
    return jax.random.uniform(key, (5,), dtype=jnp.int32, minval=0, maxval=10)


def fixed():
    key = jax.random.key(0)
    return jax.random.randint(key, (5,), minval=0, maxval=10).block_until_ready()
