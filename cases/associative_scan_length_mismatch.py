"""Passed `lax.associative_scan` a tuple of arrays with different leading lengths.

All leaves are scanned together along the axis, so their lengths along it must agree.
The fix gives both leaves the same length.
"""
import jax
import jax.numpy as jnp
from jax import lax


def combine(a, b):
    return a[0] * b[0], a[1] * b[0] + b[1]


EXPECTED = "ValueError"
ERROR_ID = "f59f83e521c06841"
TAGS = ["control_flow", "associative_scan", "shapes"]
MESSAGE_CONTAINS = "Array inputs to associative_scan must have the same first dimension"


def trigger():
    decay = jnp.full(5, 0.9)
    inputs = jnp.ones(4)
    return lax.associative_scan(combine, (decay, inputs))


def fixed():
    decay = jnp.full(4, 0.9)
    inputs = jnp.ones(4)
    return jax.block_until_ready(lax.associative_scan(combine, (decay, inputs)))
