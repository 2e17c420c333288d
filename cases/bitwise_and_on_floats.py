"""Used the bitwise `&` operator on float arrays to combine two conditions.

`&` is `lax.bitwise_and`, which only accepts integer or boolean dtypes.
The fix compares first so the operands are boolean masks.
"""
import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "35492f109b8a1e3f"
TAGS = ["dtypes", "lax"]
MESSAGE_CONTAINS = "and does not accept dtype float32 at position 0"


def trigger():
    x = jnp.linspace(-1.0, 1.0, 5)
    return jnp.where(x & (x - 0.5), x, 0.0)


def fixed():
    x = jnp.linspace(-1.0, 1.0, 5)
    return jnp.where((x > 0) & (x < 0.5), x, 0.0).block_until_ready()
