"""Asked grad for `argnums=1` of a call that only passes one positional argument.

The second parameter was supplied as a keyword, and grad only differentiates positional args.
The fix passes the parameter positionally (or chooses the right argnums).
"""
import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "0b06826b10830925"
TAGS = ["grad", "autodiff", "argnums"]
MESSAGE_CONTAINS = "differentiating with respect to argnums=1 requires at least 2 positional arguments"


def _mse(x, w=None):
    return jnp.mean((x * w - 1.0) ** 2)


def trigger():
    return jax.grad(_mse, argnums=1)(jnp.ones(3), w=jnp.float32(2.0))


def fixed():
    return jax.grad(_mse, argnums=1)(jnp.ones(3), jnp.float32(2.0)).block_until_ready()
