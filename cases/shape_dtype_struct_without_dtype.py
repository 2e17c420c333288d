"""Built a `jax.ShapeDtypeStruct` with `dtype=None`.

A ShapeDtypeStruct describes an array for tracing or lowering; both its shape and its dtype are required.
The fix gives the dtype.
"""
import jax
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "1290427734ce0927"
TAGS = ["aot", "shapes", "dtypes"]
MESSAGE_CONTAINS = "ShapeDtypeStruct: dtype must be specified"


def trigger():
    spec = jax.ShapeDtypeStruct((8, 3), None)
    return jax.eval_shape(lambda x: x.sum(0), spec)


def fixed():
    spec = jax.ShapeDtypeStruct((8, 3), jnp.float32)
    return jax.eval_shape(lambda x: x.sum(0), spec)
