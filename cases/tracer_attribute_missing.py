"""Called a method that traced arrays do not have (`.numpy()`) inside a jitted function.

Under `jit` the argument is a tracer, which only knows the attributes of its abstract value.
The fix keeps the jitted function in `jax.numpy` and converts the result outside, with `np.asarray`.
"""
import jax
import jax.numpy as jnp
import numpy as np

EXPECTED = "AttributeError"
ERROR_ID = "97e9a8deed01dada"
TAGS = ["jit", "tracing"]
MESSAGE_CONTAINS = "has no attribute numpy"


def trigger():
    @jax.jit
    def scaled(x):
        return (2 * x).numpy()

    return scaled(jnp.arange(3.0))


def fixed():
    @jax.jit
    def scaled(x):
        return 2 * x

    return np.asarray(scaled(jnp.arange(3.0)))
