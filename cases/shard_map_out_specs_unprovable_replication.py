"""Returned a per-shard (varying) value from shard_map with out_specs=P() (replicated).

shard_map checks that an output declared replicated is provably the same on every device.
`b * 2` still differs per shard; the fix reduces with `psum` (or uses out_specs=P('x')).
"""
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

EXPECTED = "ValueError"
ERROR_ID = "352be74eea0e58fc"
TAGS = ["shard_map", "vma", "out_specs"]
MESSAGE_CONTAINS = "was given out_specs which require replication which can't be statically inferred given the mesh"


def _run(body):
    mesh = jax.make_mesh((8,), ("x",))
    x = jax.device_put(jnp.arange(16.0), NamedSharding(mesh, P("x")))
    return jax.jit(jax.shard_map(body, mesh=mesh, in_specs=P("x"), out_specs=P()))(x)


def trigger():
    return _run(lambda b: b * 2)


def fixed():
    return _run(lambda b: jax.lax.psum(b * 2, "x")).block_until_ready()
