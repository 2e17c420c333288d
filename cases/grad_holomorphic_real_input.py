"""Passed `holomorphic=True` to `jax.grad` with a real input.

Holomorphic differentiation is defined for complex inputs only.
The fix passes a complex input (or drops `holomorphic=True` for real functions).
"""
import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "ce947d85e1f2ecf2"
TAGS = ["grad", "autodiff", "complex"]
MESSAGE_CONTAINS = "grad with holomorphic=True requires inputs with complex dtype"


def trigger():
    return jax.grad(lambda z: z ** 2, holomorphic=True)(1.5)


def fixed():
    return jax.grad(lambda z: z ** 2, holomorphic=True)(jnp.complex64(1.5 + 0j)).block_until_ready()
