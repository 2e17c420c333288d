"""Gave `jnp.piecewise` more functions than conditions (plus one default).

With n conditions, piecewise takes n functions, or n + 1 where the last is the default.
The fix gives two functions for two conditions.
"""
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "ca3c19cac4b91422"
TAGS = ["numpy", "control_flow"]
MESSAGE_CONTAINS = "functions are expected"


def trigger():
    x = jnp.linspace(-2.0, 2.0, 5)
    return jnp.piecewise(x, [x < 0, x >= 0], [lambda v: -v, lambda v: v, 0.0, 1.0])


def fixed():
    x = jnp.linspace(-2.0, 2.0, 5)
    return jnp.piecewise(x, [x < 0, x >= 0], [lambda v: -v, lambda v: v]).block_until_ready()
