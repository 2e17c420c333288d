"""Indexed a JAX array with a string, as if it were a dict or a structured array.

JAX arrays are numeric and have no named fields.
The fix keeps named values in a dict (a pytree) of arrays.
"""
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "a480e7e4749b8421"
TAGS = ["indexing"]
MESSAGE_CONTAINS = "JAX does not support string indexing"


def trigger():
    params = jnp.array([0.5, 2.0])
    return params["scale"]


def fixed():
    params = {"shift": jnp.array(0.5), "scale": jnp.array(2.0)}
    return params["scale"].block_until_ready()
