"""Asked `jit` to shard an output along a mesh axis that does not divide its length.

An output of length 6 cannot be split evenly into 8 shards.
The fix shards an output whose length is a multiple of the axis size (or replicates it).
"""
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

EXPECTED = "jax._src.sharding.IndivisibleError"
ERROR_ID = "a14bf56348800000"
TAGS = ["sharding", "jit", "out_shardings"]
MESSAGE_CONTAINS = "implies that array axis 0 is partitioned 8 times, but the dimension size is 6"


def trigger():
    mesh = jax.make_mesh((8,), ("x",))
    f = jax.jit(lambda x: x * 2, out_shardings=NamedSharding(mesh, P("x")))
    return f(jnp.arange(6.0))


def fixed():
    mesh = jax.make_mesh((8,), ("x",))
    f = jax.jit(lambda x: x * 2, out_shardings=NamedSharding(mesh, P("x")))
    return f(jnp.arange(8.0)).block_until_ready()
