"""Called `jax.lax.psum` over a mesh axis name outside of any shard_map.

Collective axis names are only bound inside `jax.shard_map` (or vmap/pmap with axis_name).
The fix runs the reduction inside a shard_map over a mesh that defines axis 'x'.
"""
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

EXPECTED = "NameError"
ERROR_ID = "75870dca1b82308a"
TAGS = ["shard_map", "collectives", "axis_name"]
MESSAGE_CONTAINS = "unbound axis name: x"


def trigger():
    return jax.lax.psum(jnp.arange(16.0), "x")


def fixed():
    mesh = jax.make_mesh((8,), ("x",))
    x = jax.device_put(jnp.arange(16.0), NamedSharding(mesh, P("x")))
    f = jax.shard_map(lambda b: jax.lax.psum(b, "x"), mesh=mesh, in_specs=P("x"), out_specs=P())
    return f(x).block_until_ready()
