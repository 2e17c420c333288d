"""Asked `jax.make_mesh` for a mesh with more devices than the process has.

The product of the mesh shape must not exceed the number of devices (8 here).
The fix sizes the mesh from `jax.device_count()`.
"""
import jax

EXPECTED = "ValueError"
ERROR_ID = "998b874aaf72d3d4"
TAGS = ["sharding", "mesh", "devices"]
MESSAGE_CONTAINS = "must be >= the product of mesh_shape"


def trigger():
    return jax.make_mesh((4, 4), ("data", "model"))


def fixed():
    n = jax.device_count()
    return jax.make_mesh((n // 2, 2), ("data", "model"))
