"""Gave shard_map a 2-entry in_spec for a 1-D argument.

Each in_specs entry may have at most as many entries as the argument has dimensions.
The fix uses a 1-entry spec.
"""
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

EXPECTED = "ValueError"
ERROR_ID = "d41fc3a325354de8"
TAGS = ["shard_map", "partitionspec", "shapes"]
MESSAGE_CONTAINS = "was given an in_specs entry which is too long to be compatible with the corresponding input value"


def _run(spec):
    mesh = jax.make_mesh((8,), ("x",))
    f = jax.shard_map(lambda b: b - 1, mesh=mesh, in_specs=spec, out_specs=P("x"))
    return f(jax.device_put(jnp.arange(16.0), NamedSharding(mesh, P("x"))))


def trigger():
    return _run(P(None, "x"))


def fixed():
    return _run(P("x")).block_until_ready()
