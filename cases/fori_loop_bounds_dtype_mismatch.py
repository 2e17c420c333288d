"""Called `lax.fori_loop` with lower and upper bounds of different integer dtypes.

The loop index has one dtype, so `lower` and `upper` must agree (int32 vs int16 here).
The fix casts both bounds to the same dtype.
"""
import jax
import jax.numpy as jnp
from jax import lax

EXPECTED = "TypeError"
ERROR_ID = "1190f8961c7718bf"
TAGS = ["control_flow", "fori_loop", "dtypes"]
MESSAGE_CONTAINS = "lower and upper arguments to fori_loop must have equal types, got int32 and int16"


def trigger():
    n = jnp.int16(4)
    return lax.fori_loop(jnp.int32(0), n, lambda i, acc: acc + i, jnp.int32(0))


def fixed():
    n = jnp.int16(4)
    return lax.fori_loop(jnp.int32(0), n.astype(jnp.int32), lambda i, acc: acc + i,
                         jnp.int32(0)).block_until_ready()
