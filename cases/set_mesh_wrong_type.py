"""Passed something other than a `Mesh` to `jax.set_mesh` (a list of devices).

set_mesh takes a `jax.sharding.Mesh`, such as `jax.make_mesh` returns.
The fix builds the mesh first.
"""
import jax
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "21167b9bab527d87"
TAGS = ["sharding", "mesh"]
MESSAGE_CONTAINS = "Expected mesh of type `jax.sharding.Mesh`"


def trigger():
    with jax.set_mesh(jax.devices()):
        jnp.ones(8) * 2


def fixed():
    with jax.set_mesh(jax.make_mesh((8,), ("x",))):
        y = jnp.ones(8) * 2
    return y.block_until_ready()
