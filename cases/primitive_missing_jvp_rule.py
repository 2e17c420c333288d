"""Differentiated a custom primitive that has no JVP rule.

`jax.grad` (and `jvp`) look up the primitive in `ad.primitive_jvps`; a new primitive has no entry.
The fix registers a JVP rule with `ad.defjvp`.
"""
import jax
from jax.extend.core import Primitive
from jax.interpreters import ad


def make_square_p():
    square_p = Primitive("square")
    square_p.def_impl(lambda x: x * x)
    square_p.def_abstract_eval(lambda x: x)
    return square_p


EXPECTED = "NotImplementedError"
ERROR_ID = "3a11450ad2feb653"
TAGS = ["primitives", "autodiff", "extending"]
MESSAGE_CONTAINS = "Differentiation rule for 'square' not implemented"


def trigger():
    square_p = make_square_p()
    return jax.grad(square_p.bind)(3.0)


def fixed():
    square_p = make_square_p()
    ad.defjvp(square_p, lambda g, x: 2 * x * g)
    return jax.grad(square_p.bind)(3.0).block_until_ready()
