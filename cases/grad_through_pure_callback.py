"""Differentiated through `jax.pure_callback`, which has no derivative rule.

JAX cannot see inside the host function, so it cannot differentiate it.
The fix wraps the callback in `jax.custom_jvp` and supplies the derivative (here with a second callback).
"""
import jax
import jax.numpy as jnp
import numpy as np


def host_sin(x):
    return jax.pure_callback(np.sin, jax.ShapeDtypeStruct(x.shape, x.dtype), x)


EXPECTED = "ValueError"
ERROR_ID = "74b44560ec942567"
TAGS = ["callbacks", "autodiff", "grad"]
MESSAGE_CONTAINS = "Pure callbacks do not support JVP"


def trigger():
    return jax.grad(host_sin)(jnp.float32(1.0))


def fixed():
    @jax.custom_jvp
    def sin_with_rule(x):
        return host_sin(x)

    @sin_with_rule.defjvp
    def sin_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        cos = jax.pure_callback(np.cos, jax.ShapeDtypeStruct(x.shape, x.dtype), x)
        return sin_with_rule(x), cos * t

    return jax.grad(sin_with_rule)(jnp.float32(1.0)).block_until_ready()
