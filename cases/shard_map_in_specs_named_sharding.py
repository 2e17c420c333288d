"""Passed `NamedSharding` objects to `shard_map`'s `in_specs`.

in_specs take `PartitionSpec`s; the mesh is given separately.
The fix passes the `PartitionSpec` (the sharding's `.spec`).
"""
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

EXPECTED = "TypeError"
ERROR_ID = "ef05e65cece77887"
TAGS = ["shard_map", "sharding"]
MESSAGE_CONTAINS = "shard_map in_specs argument must be a pytree of `jax.sharding.PartitionSpec` instances"


def trigger():
    mesh = jax.make_mesh((8,), ("x",))
    s = NamedSharding(mesh, P("x"))
    f = jax.shard_map(lambda b: b * 2, mesh=mesh, in_specs=s, out_specs=P("x"))
    return f(jax.device_put(jnp.ones(8), s))


def fixed():
    mesh = jax.make_mesh((8,), ("x",))
    s = NamedSharding(mesh, P("x"))
    f = jax.shard_map(lambda b: b * 2, mesh=mesh, in_specs=s.spec, out_specs=P("x"))
    return f(jax.device_put(jnp.ones(8), s)).block_until_ready()
