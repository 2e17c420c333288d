"""Created a 2-D mesh but supplied only one axis name.

The mesh needs one name per mesh dimension.
The fix passes a name for every dimension of `axis_shapes`.
"""
import jax
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "e4b8282610085830"
TAGS = ["sharding", "mesh"]
MESSAGE_CONTAINS = "Mesh requires the ndim of its first argument (`devices`) to equal the length of its second argument (`axis_names`)"


def trigger():
    return jax.make_mesh((4, 2), ("data",))


def fixed():
    mesh = jax.make_mesh((4, 2), ("data", "model"))
    return dict(mesh.shape)
