"""Called `lax.dynamic_slice` on a 2-D array with only one start index.

`start_indices` needs one entry per operand dimension, just like `slice_sizes`.
The fix passes a start index for every dimension (0 for the dimension taken whole).
"""
import jax
import jax.numpy as jnp
from jax import lax

EXPECTED = "ValueError"
ERROR_ID = "0d7bd750e9352b29"
TAGS = ["lax", "slicing", "shapes"]
MESSAGE_CONTAINS = "Length of slice indices must match number of operand dimensions (1 vs (4, 3))"


def _rows(start_indices):
    f = jax.jit(lambda x, i: lax.dynamic_slice(x, start_indices(i), (2, 3)))
    return f(jnp.arange(12.0).reshape(4, 3), 1)


def trigger():
    return _rows(lambda i: (i,))


def fixed():
    return _rows(lambda i: (i, 0)).block_until_ready()
