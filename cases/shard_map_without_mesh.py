"""Called `jax.shard_map` without `mesh=` and without a context mesh.

shard_map needs a mesh, either passed explicitly or set with `jax.set_mesh`.
The fix passes `mesh=`.
"""
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

EXPECTED = "ValueError"
ERROR_ID = "4aece81b3395d6b2"
TAGS = ["shard_map", "mesh"]
MESSAGE_CONTAINS = "The context mesh cannot be empty"


def trigger():
    f = jax.shard_map(lambda b: b * 2, in_specs=P("x"), out_specs=P("x"))
    return f(jnp.arange(8.0))


def fixed():
    mesh = jax.make_mesh((8,), ("x",))
    f = jax.shard_map(lambda b: b * 2, mesh=mesh, in_specs=P("x"), out_specs=P("x"))
    return f(jax.device_put(jnp.arange(8.0), NamedSharding(mesh, P("x")))).block_until_ready()
