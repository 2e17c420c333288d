"""Used `with_sharding_constraint` with a mesh whose axes are Explicit (the make_mesh default).

`with_sharding_constraint` is a hint for Auto axes; for Explicit axes the sharding is part of
the type and must be changed with `jax.reshard`. The fix calls `jax.reshard` under `jax.set_mesh`.
"""
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

EXPECTED = "ValueError"
ERROR_ID = "31eb2c640bbd2566"
TAGS = ["sharding", "explicit_sharding", "jit"]
MESSAGE_CONTAINS = "The spec of NamedSharding passed to with_sharding_constraint can only refer to Auto axes of the mesh"


def trigger():
    mesh = jax.make_mesh((8,), ("x",))
    s = NamedSharding(mesh, P("x"))
    return jax.jit(lambda v: jax.lax.with_sharding_constraint(v * 2, s))(jnp.arange(8.0))


def fixed():
    mesh = jax.make_mesh((8,), ("x",))
    s = NamedSharding(mesh, P("x"))
    with jax.set_mesh(mesh):  # reshard inside jit needs the mesh in context
        out = jax.jit(lambda v: jax.reshard(v * 2, s))(jnp.arange(8.0))
    return out.block_until_ready()
