"""Built a NamedSharding whose PartitionSpec names an axis the mesh does not have.

Every name in the PartitionSpec must be one of `mesh.axis_names` (here only 'data').
The fix uses the mesh's real axis name.
"""
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

EXPECTED = "ValueError"
ERROR_ID = "7d763de8859f406e"
TAGS = ["sharding", "mesh", "partitionspec"]
MESSAGE_CONTAINS = "is not found in mesh: ('data',)"


def trigger():
    mesh = jax.make_mesh((8,), ("data",))
    return NamedSharding(mesh, P("batch"))


def fixed():
    mesh = jax.make_mesh((8,), ("data",))
    x = jax.device_put(jnp.arange(16.0), NamedSharding(mesh, P("data")))
    return x.block_until_ready()
