"""Called a `lax` binary op on a float32 and an int32 array.

`lax` primitives do no implicit type promotion; both operands must share a dtype.
The fix casts explicitly (or uses `jnp.add`, which promotes).
"""
import jax
import jax.numpy as jnp
from jax import lax

EXPECTED = "TypeError"
ERROR_ID = "bb2152bd12b30c84"
TAGS = ["dtypes", "lax"]
MESSAGE_CONTAINS = "lax.add requires arguments to have the same dtypes, got float32, int32"


def trigger():
    return lax.add(jnp.ones(3, jnp.float32), jnp.arange(3, dtype=jnp.int32))


def fixed():
    y = jnp.arange(3, dtype=jnp.int32).astype(jnp.float32)
    return lax.add(jnp.ones(3, jnp.float32), y).block_until_ready()
