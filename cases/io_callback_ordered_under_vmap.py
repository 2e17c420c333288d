"""vmapped a function containing an ordered `io_callback`.

Ordered callbacks must run in program order, which has no meaning across a batch of independent examples.
The fix uses an unordered callback (or loops over the batch with `lax.map`).
"""
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback


def log_value(x):
    return np.asarray(x, dtype=np.float32)


EXPECTED = "ValueError"
ERROR_ID = "d21a69cab779d9a6"
TAGS = ["callbacks", "vmap", "effects"]
MESSAGE_CONTAINS = "Cannot `vmap` ordered IO callback"


def trigger():
    def f(x):
        return io_callback(log_value, jax.ShapeDtypeStruct((), jnp.float32), x, ordered=True)

    return jax.vmap(f)(jnp.arange(3.0))


def fixed():
    def f(x):
        return io_callback(log_value, jax.ShapeDtypeStruct((), jnp.float32), x, ordered=False)

    return jax.vmap(f)(jnp.arange(3.0)).block_until_ready()
