"""Asked `jax.random.truncated_normal` for an integer dtype.

The truncated normal is a continuous distribution sampled in floating point.
The fix samples floats (and rounds afterwards if integers are really wanted).
"""
import jax
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "ee356daec0891560"
TAGS = ["random", "dtypes"]
MESSAGE_CONTAINS = "dtype argument to `truncated_normal` must be a float dtype"


def trigger():
    return jax.random.truncated_normal(jax.random.key(0), -2.0, 2.0, (4,), dtype=jnp.int32)


def fixed():
    return jax.random.truncated_normal(jax.random.key(0), -2.0, 2.0, (4,), dtype=jnp.float32).block_until_ready()
