"""Passed `length=` to `lax.scan` that differs from the leading axis of `xs`.

When both are given, `length` must equal every leading axis size of `xs`.
The fix drops `length` (it is inferred from xs) or makes it match.
"""
import jax
import jax.numpy as jnp
from jax import lax

EXPECTED = "ValueError"
ERROR_ID = "891047c4d7579acc"
TAGS = ["control_flow", "scan", "shapes"]
MESSAGE_CONTAINS = "scan got `length` argument of 10 which disagrees with leading axis sizes [8]."


def _cumsum(c, x):
    return c + x, c + x


def trigger():
    return lax.scan(_cumsum, jnp.float32(0.0), jnp.arange(8.0), length=10)


def fixed():
    return jax.block_until_ready(lax.scan(_cumsum, jnp.float32(0.0), jnp.arange(8.0)))
