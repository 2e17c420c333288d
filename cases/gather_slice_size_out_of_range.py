"""Called `lax.gather` with a slice size larger than the operand's dimension.

Each `slice_sizes` entry must lie in `[0, operand.shape[i]]`.
The fix gathers windows of size 1 from the indexed axis, as an ordinary element gather does.
"""
import jax.numpy as jnp
from jax import lax

EXPECTED = "TypeError"
ERROR_ID = "4579044dc63ffcbe"
TAGS = ["gather", "slicing", "lax"]
MESSAGE_CONTAINS = "in gather op is out of range"


def trigger():
    table = jnp.arange(12.0).reshape(4, 3)
    rows = jnp.array([[0], [2]])
    dnums = lax.GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,))
    return lax.gather(table, rows, dnums, slice_sizes=(1, 4))


def fixed():
    table = jnp.arange(12.0).reshape(4, 3)
    rows = jnp.array([[0], [2]])
    dnums = lax.GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,))
    return lax.gather(table, rows, dnums, slice_sizes=(1, 3)).block_until_ready()
