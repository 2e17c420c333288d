"""Passed a bare value as `args` to `jax.scipy.optimize.minimize`.

args is a tuple of extra positional arguments for the objective, even when there is only one.
The fix writes a one-element tuple.
"""
import jax.numpy as jnp
from jax.scipy.optimize import minimize


def loss(x, target):
    return jnp.sum((x - target) ** 2)


EXPECTED = "TypeError"
ERROR_ID = "7adb78d0b33f315b"
TAGS = ["scipy", "optimization"]
MESSAGE_CONTAINS = "args argument to jax.scipy.optimize.minimize must be a tuple"


def trigger():
    return minimize(loss, jnp.zeros(2), args=jnp.ones(2), method="BFGS")


def fixed():
    return minimize(loss, jnp.zeros(2), args=(jnp.ones(2),), method="BFGS").x.block_until_ready()
