"""Gave `lax.pad` a padding configuration for fewer axes than the operand has.

padding_config needs one `(low, high, interior)` triple per axis.
The fix adds a `(0, 0, 0)` triple for the axis left unpadded.
"""
import jax.numpy as jnp
from jax import lax

EXPECTED = "ValueError"
ERROR_ID = "fc85ce6eaea36820"
TAGS = ["padding", "lax", "shapes"]
MESSAGE_CONTAINS = "length of padding_config must equal the number of axes of operand"


def trigger():
    x = jnp.ones((2, 3))
    return lax.pad(x, 0.0, [(1, 1, 0)])


def fixed():
    x = jnp.ones((2, 3))
    return lax.pad(x, 0.0, [(0, 0, 0), (1, 1, 0)]).block_until_ready()
