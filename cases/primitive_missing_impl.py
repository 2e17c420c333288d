"""Called a custom primitive eagerly before giving it an implementation.

Outside of any transformation `bind` runs the primitive's `impl`, registered with `def_impl`.
The fix registers the implementation (or only calls the primitive inside `jit`, with a lowering).
"""
import jax.numpy as jnp
from jax.extend.core import Primitive

EXPECTED = "NotImplementedError"
ERROR_ID = "e54c2358c624c2a4"
TAGS = ["primitives", "extending"]
MESSAGE_CONTAINS = "Evaluation rule for 'square' not implemented"


def trigger():
    square_p = Primitive("square")
    square_p.def_abstract_eval(lambda x: x)
    return square_p.bind(jnp.arange(3.0))


def fixed():
    square_p = Primitive("square")
    square_p.def_abstract_eval(lambda x: x)
    square_p.def_impl(lambda x: x * x)
    return square_p.bind(jnp.arange(3.0)).block_until_ready()
