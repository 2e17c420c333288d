"""Asked `jax.random.normal` for an integer dtype.

Normal samples are continuous, so the dtype must be floating or complex.
The fix samples floats and rounds/casts explicitly if integers are needed.
"""
import jax
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "eb97e27eede626ac"
TAGS = ["random", "dtypes"]
MESSAGE_CONTAINS = "dtype argument to `normal` must be a float or complex dtype, got int32"


def trigger():
    return jax.random.normal(jax.random.key(0), (3,), dtype=jnp.int32)


def fixed():
    x = jax.random.normal(jax.random.key(0), (3,), dtype=jnp.float32)
    return jnp.round(x).astype(jnp.int32).block_until_ready()
