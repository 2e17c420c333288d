"""Asked `jnp.split` for 2 equal sections of a length-5 array.

With an integer `indices_or_sections`, the axis length must be divisible by it.
The fix uses `jnp.array_split`, which allows unequal pieces.
"""
import jax
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "0151546e14fbd29d"
TAGS = ["shapes", "numpy"]
MESSAGE_CONTAINS = "array split does not result in an equal division"


def trigger():
    return jnp.split(jnp.arange(5), 2)


def fixed():
    parts = jnp.array_split(jnp.arange(5), 2)
    return [p.block_until_ready() for p in parts]
