"""vmapped a custom primitive that has no batching rule.

A `Primitive` built with `jax.extend.core` only gets the rules you register; vmap needs one in `batching.primitive_batchers`.
The fix registers a batching rule (here the op is elementwise, so the batch axis passes through).
"""
import jax
import jax.numpy as jnp
from jax.extend.core import Primitive
from jax.interpreters import batching


def make_square_p():
    square_p = Primitive("square")
    square_p.def_impl(lambda x: x * x)
    square_p.def_abstract_eval(lambda x: x)
    return square_p


EXPECTED = "NotImplementedError"
ERROR_ID = "923e92491b4d9523"
TAGS = ["primitives", "vmap", "extending"]
MESSAGE_CONTAINS = "Batching rule for 'square' not implemented"


def trigger():
    square_p = make_square_p()
    return jax.vmap(square_p.bind)(jnp.arange(3.0))


def fixed():
    square_p = make_square_p()
    batching.primitive_batchers[square_p] = lambda args, dims: (square_p.bind(*args), dims[0])
    return jax.vmap(square_p.bind)(jnp.arange(3.0)).block_until_ready()
