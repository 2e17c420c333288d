"""Tried to build a JAX array from Python strings.

JAX arrays only hold numeric/bool dtypes; NumPy's unicode dtype is rejected.
The fix encodes the strings as integer ids before handing them to JAX.
"""
import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "f036f83ff02d9c92"
TAGS = ["dtypes", "numpy"]
MESSAGE_CONTAINS = "is not a valid JAX array type. Only arrays of numeric types are supported by JAX"


def trigger():
    return jnp.array(["cat", "dog", "cat"])


def fixed():
    labels = ["cat", "dog", "cat"]
    vocab = {w: i for i, w in enumerate(sorted(set(labels)))}
    return jnp.array([vocab[w] for w in labels]).block_until_ready()
