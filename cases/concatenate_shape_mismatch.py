"""Concatenated along axis 0 arrays whose other dimensions differ ((2,3) and (2,4)).

All dimensions except the concatenation axis must match.
The fix concatenates along axis 1, where the sizes are allowed to differ.
"""
import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "0046219dc0bf0b0d"
TAGS = ["shapes", "concatenate", "lax"]
MESSAGE_CONTAINS = "Cannot concatenate arrays with shapes that differ in dimensions other than the one being concatenated"


def trigger():
    return jnp.concatenate([jnp.ones((2, 3)), jnp.ones((2, 4))], axis=0)


def fixed():
    return jnp.concatenate([jnp.ones((2, 3)), jnp.ones((2, 4))], axis=1).block_until_ready()
