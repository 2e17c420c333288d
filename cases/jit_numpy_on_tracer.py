"""Called a plain NumPy function on a traced array inside jit.

NumPy tries to convert its argument with `__array__()`, which is impossible for an abstract
tracer. The fix uses the `jax.numpy` equivalent, which traces into the jaxpr.
"""
import numpy as np

import jax
import jax.numpy as jnp

EXPECTED = "jax.errors.TracerArrayConversionError"
ERROR_ID = "6a87865289d9678b"
TAGS = ["jit", "tracing", "numpy"]
MESSAGE_CONTAINS = "The numpy.ndarray conversion method __array__() was called on traced array"


def trigger():
    @jax.jit
    def f(x):
        return np.sin(x) * 2

    return f(jnp.arange(3.0))


def fixed():
    @jax.jit
    def f(x):
        return jnp.sin(x) * 2

    return f(jnp.arange(3.0)).block_until_ready()
