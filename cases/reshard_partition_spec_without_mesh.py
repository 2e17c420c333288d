"""Called `jax.reshard` with a bare `PartitionSpec` outside any mesh context.

A PartitionSpec names mesh axes, so it needs a mesh: from `jax.set_mesh`, or inside a `NamedSharding`.
The fix passes a `NamedSharding` built from the mesh.
"""
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

EXPECTED = "ValueError"
ERROR_ID = "b37bd7b922183914"
TAGS = ["sharding", "mesh"]
MESSAGE_CONTAINS = "Using PartitionSpec when you are not under a mesh context is not allowed"


def trigger():
    jax.make_mesh((8,), ("x",))
    return jax.reshard(jnp.ones(8), P("x"))


def fixed():
    mesh = jax.make_mesh((8,), ("x",))
    return jax.reshard(jnp.ones(8), NamedSharding(mesh, P("x"))).block_until_ready()
