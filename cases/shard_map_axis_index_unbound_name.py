"""Inside shard_map, asked for `axis_index` of an axis name the mesh does not define.

Only the mesh's manual axes ('x' here) are bound inside the shard_map body.
The fix uses the mesh's axis name.
"""
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

EXPECTED = "NameError"
ERROR_ID = "634d0fc28b1207c6"
TAGS = ["shard_map", "collectives", "axis_name"]
MESSAGE_CONTAINS = "Found an unbound axis name: devices"


def _run(axis):
    mesh = jax.make_mesh((8,), ("x",))
    x = jax.device_put(jnp.zeros(8), NamedSharding(mesh, P("x")))
    body = lambda b: b + jax.lax.axis_index(axis)
    return jax.shard_map(body, mesh=mesh, in_specs=P("x"), out_specs=P("x"))(x)


def trigger():
    return _run("devices")


def fixed():
    return _run("x").block_until_ready()
