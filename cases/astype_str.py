"""Cast a JAX array to Python's `str` type (to format numbers as text).

JAX arrays hold numbers and booleans; a string dtype is refused.
The fix converts to NumPy first and formats there.
"""
import jax.numpy as jnp
import numpy as np

EXPECTED = "TypeError"
ERROR_ID = "70a678c7ba299fc8"
TAGS = ["dtypes", "arrays"]
MESSAGE_CONTAINS = "JAX only supports number, bool, and string dtypes, got dtype <class 'str'>"


def trigger():
    scores = jnp.array([0.5, 0.25])
    return scores.astype(str)


def fixed():
    scores = jnp.array([0.5, 0.25])
    return np.asarray(scores).astype(str)
