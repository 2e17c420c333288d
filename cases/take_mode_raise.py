"""Asked `jnp.take` to raise on out-of-bounds indices (`mode="raise"`).

Compiled code cannot raise on data-dependent conditions, so JAX does not offer this mode.
The fix picks a defined out-of-bounds behaviour ("clip" or "fill"), and checks indices with `checkify` if needed.
"""
import jax.numpy as jnp

EXPECTED = "NotImplementedError"
ERROR_ID = "9332b534418daa75"
TAGS = ["indexing", "numpy"]
MESSAGE_CONTAINS = "The 'raise' mode to jnp.take is not supported"


def trigger():
    table = jnp.arange(5.0)
    return jnp.take(table, jnp.array([1, 7]), mode="raise")


def fixed():
    table = jnp.arange(5.0)
    return jnp.take(table, jnp.array([1, 7]), mode="fill", fill_value=jnp.nan).block_until_ready()
