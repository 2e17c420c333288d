"""Differentiated through an `io_callback`.

An io_callback has side effects and no derivative rule.
The fix keeps the callback out of the differentiated value (`jax.debug.callback` for logging, or `stop_gradient` on its input).
"""
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback


def record(x):
    return np.asarray(x, dtype=np.float32)


EXPECTED = "ValueError"
ERROR_ID = "dbfd3c389aae751a"
TAGS = ["callbacks", "autodiff", "grad"]
MESSAGE_CONTAINS = "IO callbacks do not support JVP"


def trigger():
    def loss(w):
        y = io_callback(record, jax.ShapeDtypeStruct((), jnp.float32), w ** 2)
        return y + w

    return jax.grad(loss)(1.0)


def fixed():
    def loss(w):
        y = w ** 2
        jax.debug.callback(record, y)
        return y + w

    return jax.grad(loss)(1.0).block_until_ready()
