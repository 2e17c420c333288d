"""Passed integer time points to `odeint`.

The solver interpolates between times, so `t` must be a float array.
The fix builds the time grid as floats.
"""
import jax.numpy as jnp
from jax.experimental.ode import odeint


def decay(y, t):
    return -0.5 * y


EXPECTED = "TypeError"
ERROR_ID = "4b1a304a5bd98f04"
TAGS = ["ode", "dtypes"]
MESSAGE_CONTAINS = "t must be an array of floats"


def trigger():
    return odeint(decay, jnp.ones(2), jnp.arange(5))


def fixed():
    return odeint(decay, jnp.ones(2), jnp.arange(5.0)).block_until_ready()
