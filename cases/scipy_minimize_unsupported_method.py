"""Asked `jax.scipy.optimize.minimize` for a SciPy method it does not implement (L-BFGS-B).

Only "BFGS" (and the experimental "l-bfgs-experimental-do-not-rely-on-this") are implemented.
The fix uses "BFGS"; bounded problems need another optimisation library.
"""
import jax.numpy as jnp
from jax.scipy.optimize import minimize


def loss(x):
    return jnp.sum((x - 3.0) ** 2)


EXPECTED = "ValueError"
ERROR_ID = "593f90020e713a16"
TAGS = ["scipy", "optimization"]
MESSAGE_CONTAINS = "Method L-BFGS-B not recognized"


def trigger():
    return minimize(loss, jnp.zeros(2), method="L-BFGS-B")


def fixed():
    return minimize(loss, jnp.zeros(2), method="BFGS").x.block_until_ready()
