"""Took `jax.grad` of a function with a complex-valued output.

grad needs a real scalar output; for complex outputs JAX asks you to be explicit.
The fix differentiates a real quantity (`jnp.abs(z) ** 2`), or use `holomorphic=True`.
"""
import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "673cc821231164e9"
TAGS = ["grad", "autodiff", "dtypes", "complex"]
MESSAGE_CONTAINS = "grad requires real-valued outputs"


def trigger():
    return jax.grad(lambda t: jnp.exp(1j * t))(0.5)


def fixed():
    return jax.grad(lambda t: jnp.abs(jnp.exp(1j * t) + 1.0) ** 2)(0.5).block_until_ready()
