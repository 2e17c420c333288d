"""Gave `lax.pshuffle` a `perm` that repeats a device index.

pshuffle moves each device's value to a new position, so `perm` must list every index of the axis once.
The fix uses a true permutation (here a rotation by one).
"""
import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import NamedSharding, PartitionSpec as P

EXPECTED = "ValueError"
ERROR_ID = "bd5a81feb3416b75"
TAGS = ["shard_map", "collectives"]
MESSAGE_CONTAINS = "`perm` does not represent a permutation"


def trigger():
    mesh = jax.make_mesh((8,), ("x",))
    x = jax.device_put(jnp.arange(8.0), NamedSharding(mesh, P("x")))
    perm = [0, 0, 1, 2, 3, 4, 5, 6]
    return jax.shard_map(lambda b: lax.pshuffle(b, "x", perm), mesh=mesh, in_specs=P("x"), out_specs=P("x"))(x)


def fixed():
    mesh = jax.make_mesh((8,), ("x",))
    x = jax.device_put(jnp.arange(8.0), NamedSharding(mesh, P("x")))
    perm = [7, 0, 1, 2, 3, 4, 5, 6]
    return jax.shard_map(lambda b: lax.pshuffle(b, "x", perm), mesh=mesh, in_specs=P("x"),
                         out_specs=P("x"))(x).block_until_ready()
