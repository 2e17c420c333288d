"""Asked `lax.sort` to use more sort keys than there are operands.

num_keys counts how many of the leading operands are compared; the rest are carried along.
The fix sorts by the first operand only and carries the second.
"""
import jax
import jax.numpy as jnp
from jax import lax

EXPECTED = "ValueError"
ERROR_ID = "e021c87b0e8570ac"
TAGS = ["sorting", "lax"]
MESSAGE_CONTAINS = "must be between 1 and len(operand)"


def trigger():
    keys = jnp.array([3, 1, 2])
    values = jnp.array([30.0, 10.0, 20.0])
    return lax.sort((keys, values), num_keys=3)


def fixed():
    keys = jnp.array([3, 1, 2])
    values = jnp.array([30.0, 10.0, 20.0])
    return jax.block_until_ready(lax.sort((keys, values), num_keys=1))
