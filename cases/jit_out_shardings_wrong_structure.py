"""Gave `jit` an `out_shardings` tuple whose length differs from the tuple the function returns.

out_shardings must be a tree prefix of the output: one sharding per returned value here.
The fix lists a sharding for each of the two outputs (or a single sharding for all).
"""
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

EXPECTED = "ValueError"
ERROR_ID = "67bd04a7c0cd8ae3"
TAGS = ["sharding", "jit", "pytrees", "out_shardings"]
MESSAGE_CONTAINS = "pytree structure error: different lengths of tuple at key path"


def trigger():
    mesh = jax.make_mesh((8,), ("x",))
    s = NamedSharding(mesh, P("x"))
    f = jax.jit(lambda x: (x + 1, x * 2), out_shardings=(s, s, s))
    return f(jnp.ones(8))


def fixed():
    mesh = jax.make_mesh((8,), ("x",))
    s = NamedSharding(mesh, P("x"))
    f = jax.jit(lambda x: (x + 1, x * 2), out_shardings=(s, s))
    return jax.block_until_ready(f(jnp.ones(8)))
