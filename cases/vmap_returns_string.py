"""A vmapped function returned a Python string next to its array output.

Every output leaf of a vmapped function must be a JAX type (array or scalar).
The fix returns only arrays and keeps the label outside the vmap.
"""
import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "f6139c0278c69c4d"
TAGS = ["vmap", "pytrees"]
MESSAGE_CONTAINS = "Output from batched function 'relu' with type <class 'str'> is not a valid JAX type"


def trigger():
    return jax.vmap(lambda x: (jnp.maximum(x, 0.0), "relu"))(jnp.arange(-2.0, 2.0))


def fixed():
    out = jax.vmap(lambda x: jnp.maximum(x, 0.0))(jnp.arange(-2.0, 2.0))
    return out.block_until_ready(), "relu"
