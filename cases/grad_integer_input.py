"""Differentiated with respect to an integer argument.

`grad` requires inexact (float/complex) inputs; `3` is traced as int32.
The fix passes a float (`3.0`) so the derivative is defined.
"""
import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "74e556e2890099ba"
TAGS = ["grad", "autodiff", "dtypes"]
MESSAGE_CONTAINS = "grad requires real- or complex-valued inputs"


def trigger():
    return jax.grad(lambda x: x ** 2)(3)


def fixed():
    return jax.grad(lambda x: x ** 2)(3.0).block_until_ready()
