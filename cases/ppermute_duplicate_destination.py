"""Gave `lax.ppermute` a permutation in which two sources send to the same destination.

`perm` must be a partial permutation: sources unique and destinations unique.
The fix uses a proper ring shift (i -> i+1 mod 8).
"""
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

EXPECTED = "ValueError"
ERROR_ID = "911a043962a811bd"
TAGS = ["shard_map", "collectives", "ppermute"]
MESSAGE_CONTAINS = "ppermute sources and destinations must be unique"


def _run(perm):
    mesh = jax.make_mesh((8,), ("x",))
    body = lambda b: jax.lax.ppermute(b, "x", perm)
    f = jax.shard_map(body, mesh=mesh, in_specs=P("x"), out_specs=P("x"))
    return f(jax.device_put(jnp.arange(8.0), NamedSharding(mesh, P("x"))))


def trigger():
    return _run([(i, 0) for i in range(8)])  # everyone sends to device 0


def fixed():
    return _run([(i, (i + 1) % 8) for i in range(8)]).block_until_ready()
