"""Gave shard_map in_specs=P('x') for an unsharded array on an Explicit-axes mesh.

`jax.make_mesh` creates Explicit axes by default, and shard_map then requires the in_specs to
match the argument's actual sharding instead of resharding silently. The fix
`device_put`s the input with the matching NamedSharding first (or omits in_specs).
"""
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

EXPECTED = "ValueError"
ERROR_ID = "fb3d85d789763268"
TAGS = ["shard_map", "sharding", "explicit_sharding"]
MESSAGE_CONTAINS = "does not match the specs of the input"


def trigger():
    mesh = jax.make_mesh((8,), ("x",))
    f = jax.shard_map(lambda b: b * 2, mesh=mesh, in_specs=P("x"), out_specs=P("x"))
    return f(jnp.arange(16.0))


def fixed():
    mesh = jax.make_mesh((8,), ("x",))
    f = jax.shard_map(lambda b: b * 2, mesh=mesh, in_specs=P("x"), out_specs=P("x"))
    x = jax.device_put(jnp.arange(16.0), NamedSharding(mesh, P("x")))
    return f(x).block_until_ready()
