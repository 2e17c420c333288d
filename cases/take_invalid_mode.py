"""Passed an unknown `mode` string ("clamped") to `jnp.take`.

`jnp.take` accepts mode=None (same as "fill"), "fill", "clip" or "wrap"; "raise" is
not supported under JAX. The fix uses mode="clip".
"""
import jax
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "503aedd136a7ba2a"
TAGS = ["indexing", "gather", "numpy"]
MESSAGE_CONTAINS = "Invalid mode 'clamped' for np.take"


def trigger():
    return jnp.take(jnp.arange(5.0), jnp.array([0, 4, 7]), mode="clamped")


def fixed():
    return jnp.take(jnp.arange(5.0), jnp.array([0, 4, 7]), mode="clip").block_until_ready()
