"""With NaN checking on, a jitted function produced a NaN (`log` of a negative number).

`jax_debug_nans` reruns the failing jitted call op by op and raises where the first NaN appears.
The fix keeps the input in the function's domain, here with `jnp.abs` and a small floor.
"""
import jax
import jax.numpy as jnp

EXPECTED = "FloatingPointError"
ERROR_ID = "4252354ac277b8c1"
TAGS = ["debugging", "nans", "jit"]
MESSAGE_CONTAINS = "invalid value (nan) encountered in log"


def trigger():
    @jax.jit
    def log_likelihood(x):
        return jnp.log(x).sum()

    with jax.debug_nans(True):
        log_likelihood(jnp.array([1.0, -2.0, 3.0])).block_until_ready()


def fixed():
    @jax.jit
    def log_likelihood(x):
        return jnp.log(jnp.maximum(jnp.abs(x), 1e-12)).sum()

    with jax.debug_nans(True):
        total = log_likelihood(jnp.array([1.0, -2.0, 3.0])).block_until_ready()
    return total
