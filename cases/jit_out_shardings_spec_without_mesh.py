"""Passed a bare PartitionSpec as jit `out_shardings` without a mesh in context.

jit cannot resolve a PartitionSpec into devices unless a context mesh is set.
The fix enters a mesh with `jax.set_mesh` (or passes a NamedSharding).
"""
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

EXPECTED = "RuntimeError"
ERROR_ID = "04600e02172407be"
TAGS = ["sharding", "jit", "mesh"]
MESSAGE_CONTAINS = "jit requires a non-empty mesh in context if you are passing `PartitionSpec`s to out_shardings"


def trigger():
    return jax.jit(lambda v: v + 1, out_shardings=P("x"))(jnp.arange(8.0))


def fixed():
    mesh = jax.make_mesh((8,), ("x",))
    with jax.set_mesh(mesh):
        out = jax.jit(lambda v: v + 1, out_shardings=P("x"))(jnp.arange(8.0))
    return out.block_until_ready()
