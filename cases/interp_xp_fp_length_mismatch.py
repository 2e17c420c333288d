"""Gave `jnp.interp` sample points `xp` and values `fp` of different lengths.

Each value in fp belongs to the sample point at the same position in xp.
The fix passes arrays of equal length.
"""
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "7d9bfa4c19c81c56"
TAGS = ["numpy", "shapes"]
MESSAGE_CONTAINS = "xp and fp must be one-dimensional arrays of equal size"


def trigger():
    xp = jnp.linspace(0.0, 1.0, 5)
    fp = jnp.linspace(0.0, 1.0, 4) ** 2
    return jnp.interp(0.3, xp, fp)


def fixed():
    xp = jnp.linspace(0.0, 1.0, 5)
    fp = xp ** 2
    return jnp.interp(0.3, xp, fp).block_until_ready()
