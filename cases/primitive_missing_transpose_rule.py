"""Took `jax.grad` of a custom linear primitive that has a JVP rule but no transpose rule.

Reverse mode transposes the linear part of the JVP; a JVP that uses the primitive itself needs its transpose.
The fix registers the transpose in `ad.primitive_transposes` (for a scaling by 3, it scales the cotangent by 3).
"""
import jax
from jax.extend.core import Primitive
from jax.interpreters import ad


def make_triple_p():
    triple_p = Primitive("triple")
    triple_p.def_impl(lambda x: 3 * x)
    triple_p.def_abstract_eval(lambda x: x)
    ad.defjvp(triple_p, lambda g, x: triple_p.bind(g))
    return triple_p


EXPECTED = "NotImplementedError"
ERROR_ID = "e9ded149c7c72d3e"
TAGS = ["primitives", "autodiff", "extending"]
MESSAGE_CONTAINS = "Transpose rule (for reverse-mode differentiation) for 'triple' not implemented"


def trigger():
    triple_p = make_triple_p()
    return jax.grad(triple_p.bind)(1.0)


def fixed():
    triple_p = make_triple_p()
    ad.primitive_transposes[triple_p] = lambda ct, x: [3 * ct]
    return jax.grad(triple_p.bind)(1.0).block_until_ready()
