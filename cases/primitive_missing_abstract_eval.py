"""Traced a custom primitive (under `jit`) that has no abstract evaluation rule.

Tracing needs the output's shape and dtype without running anything; `def_abstract_eval` supplies them.
The fix registers an abstract evaluation rule returning a `ShapedArray`.
"""
import jax
import jax.numpy as jnp
from jax.extend.core import Primitive
from jax.interpreters import mlir

EXPECTED = "NotImplementedError"
ERROR_ID = "0c76bf0db3cef755"
TAGS = ["primitives", "jit", "extending"]
MESSAGE_CONTAINS = "Abstract evaluation for 'square' not implemented"


def trigger():
    square_p = Primitive("square")
    square_p.def_impl(lambda x: x * x)
    return jax.jit(square_p.bind)(jnp.arange(3.0))


def fixed():
    square_p = Primitive("square")
    square_p.def_impl(lambda x: x * x)
    square_p.def_abstract_eval(lambda x: jax.core.ShapedArray(x.shape, x.dtype))
    mlir.register_lowering(square_p, mlir.lower_fun(lambda x: x * x, multiple_results=False))
    return jax.jit(square_p.bind)(jnp.arange(3.0)).block_until_ready()
