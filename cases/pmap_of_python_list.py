"""Passed Python numbers (a list of floats) to `jax.pmap`, which maps over an array axis.

pmap needs at least one argument with a leading axis to split across devices; Python scalars have none.
The fix stacks the values into an array whose leading axis is the device count.
"""
import jax
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "ecff8da0c298eed1"
TAGS = ["pmap", "parallelism", "shapes"]
MESSAGE_CONTAINS = "pmap requires at least one argument with a mapped axis"


def trigger():
    n = jax.local_device_count()
    return jax.pmap(lambda x: x * 2)([float(i) for i in range(n)])


def fixed():
    n = jax.local_device_count()
    return jax.pmap(lambda x: x * 2)(jnp.arange(float(n))).block_until_ready()
