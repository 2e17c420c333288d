"""Reverse-mode differentiated a jitted `fori_loop` whose trip count is a traced value.

A traced trip count turns fori_loop into a while_loop, which has no reverse-mode rule.
The fix makes the trip count static (static_argnums), so fori_loop lowers to a scan.
"""
import jax
import jax.numpy as jnp
from jax import lax

EXPECTED = "ValueError"
ERROR_ID = "425350aa6bc92aa0"
TAGS = ["control_flow", "fori_loop", "grad", "jit"]
MESSAGE_CONTAINS = "Reverse-mode differentiation does not work for lax.while_loop or lax.fori_loop with dynamic start/stop values"


def _power(x, n):
    return lax.fori_loop(0, n, lambda i, acc: acc * x, jnp.float32(1.0))


def trigger():
    return jax.jit(jax.grad(_power))(jnp.float32(2.0), 3)


def fixed():
    return jax.jit(jax.grad(_power), static_argnums=1)(jnp.float32(2.0), 3).block_until_ready()
