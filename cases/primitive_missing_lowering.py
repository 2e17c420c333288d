"""Compiled a custom primitive (under `jit`) that has no MLIR lowering rule.

`jit` lowers every primitive to StableHLO; a new primitive needs `mlir.register_lowering`.
The fix registers a lowering built from JAX code with `mlir.lower_fun`.
"""
import jax
import jax.numpy as jnp
from jax.extend.core import Primitive
from jax.interpreters import mlir


def make_square_p():
    square_p = Primitive("square")
    square_p.def_impl(lambda x: x * x)
    square_p.def_abstract_eval(lambda x: x)
    return square_p


EXPECTED = "NotImplementedError"
ERROR_ID = "3099d819da23a4bb"
TAGS = ["primitives", "jit", "lowering", "extending"]
MESSAGE_CONTAINS = "MLIR translation rule for primitive 'square' not found for platform cpu"


def trigger():
    square_p = make_square_p()
    return jax.jit(square_p.bind)(jnp.arange(3.0))


def fixed():
    square_p = make_square_p()
    mlir.register_lowering(square_p, mlir.lower_fun(lambda x: x * x, multiple_results=False))
    return jax.jit(square_p.bind)(jnp.arange(3.0)).block_until_ready()
