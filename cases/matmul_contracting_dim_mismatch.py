"""Matrix-multiplied a (2, 3) array with a (4, 5) array.

`@` lowers to `lax.dot_general`, which requires the contracted dimensions to have equal size.
The fix transposes/builds the right operand so its leading dimension matches (3).
"""
import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "a7d8d9790b20215c"
TAGS = ["shapes", "dot_general", "lax"]
MESSAGE_CONTAINS = "dot_general requires contracting dimensions to have the same shape, got (3,) and (4,)"


def trigger():
    a = jnp.ones((2, 3))
    w = jnp.ones((4, 5))
    return a @ w


def fixed():
    a = jnp.ones((2, 3))
    w = jnp.ones((3, 5))
    return (a @ w).block_until_ready()
