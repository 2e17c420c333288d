"""Passed a bare PartitionSpec to `jax.device_put` with no mesh in context.

A PartitionSpec only names mesh axes; without a mesh JAX cannot tell which devices to use.
The fix sets a context mesh with `jax.set_mesh` (or wraps the spec in a NamedSharding).
"""
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

EXPECTED = "ValueError"
ERROR_ID = "0eb049ca28d6fdfd"
TAGS = ["sharding", "device_put", "mesh"]
MESSAGE_CONTAINS = "Please set a mesh via `jax.set_mesh` if a PartitionSpec is passed to device_put"


def trigger():
    return jax.device_put(jnp.arange(8.0), P("x"))


def fixed():
    mesh = jax.make_mesh((8,), ("x",))
    with jax.set_mesh(mesh):
        x = jax.device_put(jnp.arange(8.0), P("x"))
    return x.block_until_ready()
