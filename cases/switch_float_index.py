"""Passed a float index to `lax.switch`.

The branch index must be an integer scalar; a float from arithmetic is rejected.
The fix converts it with `.astype(jnp.int32)`.
"""
import jax
import jax.numpy as jnp
from jax import lax

EXPECTED = "TypeError"
ERROR_ID = "cb5053a22c3e34b4"
TAGS = ["control_flow", "switch", "dtypes"]
MESSAGE_CONTAINS = "Index type must be an integer, got"


def _branches():
    return [lambda x: x, lambda x: -x, lambda x: 2 * x]


def trigger():
    f = jax.jit(lambda t, x: lax.switch(t * 2.0, _branches(), x))
    return f(jnp.float32(1.0), jnp.ones(3))


def fixed():
    f = jax.jit(lambda t, x: lax.switch((t * 2.0).astype(jnp.int32), _branches(), x))
    return f(jnp.float32(1.0), jnp.ones(3)).block_until_ready()
