"""Used an in_specs axis name that is not an axis of the shard_map mesh.

in_specs may only refer to the mesh's manual axes; 'batch' is not one of them.
The fix uses the mesh axis name 'x'.
"""
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

EXPECTED = "ValueError"
ERROR_ID = "bad43a5744f7c2e5"
TAGS = ["shard_map", "partitionspec", "mesh"]
MESSAGE_CONTAINS = "shard_map in_specs argument must refer to an axis marked as manual"


def trigger():
    mesh = jax.make_mesh((8,), ("x",))
    f = jax.shard_map(lambda b: b + 1, mesh=mesh, in_specs=P("batch"), out_specs=P("x"))
    return f(jnp.arange(16.0))


def fixed():
    mesh = jax.make_mesh((8,), ("x",))
    f = jax.shard_map(lambda b: b + 1, mesh=mesh, in_specs=P("x"), out_specs=P("x"))
    return f(jax.device_put(jnp.arange(16.0), NamedSharding(mesh, P("x")))).block_until_ready()
