"""device_put a length-6 array with its only axis sharded over 8 devices.

Sharded dimensions must be divisible by the number of shards along them.
The fix pads the array to a multiple of 8 (alternatively, replicate it with P()).
"""
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

EXPECTED = "ValueError"
ERROR_ID = "f6067e4c342b0f3c"
TAGS = ["sharding", "device_put", "partitionspec"]
MESSAGE_CONTAINS = "implies that array axis 0 is partitioned 8 times, but does not evenly divide the dimension size 6"


def trigger():
    mesh = jax.make_mesh((8,), ("x",))
    return jax.device_put(jnp.arange(6.0), NamedSharding(mesh, P("x")))


def fixed():
    mesh = jax.make_mesh((8,), ("x",))
    x = jnp.pad(jnp.arange(6.0), (0, 2))
    return jax.device_put(x, NamedSharding(mesh, P("x"))).block_until_ready()
