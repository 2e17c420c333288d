"""Sharded a length-12 input over an 8-device mesh axis via shard_map in_specs.

Each shard_map block must have the same shape, so the sharded dimension must divide by 8.
The fix pads the input to 16 elements.
"""
import numpy as np

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

EXPECTED = "ValueError"
ERROR_ID = "c99e54c65625311d"
TAGS = ["shard_map", "sharding", "shapes"]
MESSAGE_CONTAINS = "was given argument arrays with axis sizes that are not evenly divisible by the corresponding mesh axis sizes"


def _shmap():
    mesh = jax.make_mesh((8,), ("x",))
    f = jax.shard_map(lambda b: b * 2, mesh=mesh, in_specs=P("x"), out_specs=P("x"))
    return mesh, f


def trigger():
    _, f = _shmap()
    return f(np.arange(12, dtype=np.float32))


def fixed():
    mesh, f = _shmap()
    x = jnp.pad(jnp.arange(12.0), (0, 4))
    return f(jax.device_put(x, NamedSharding(mesh, P("x")))).block_until_ready()
