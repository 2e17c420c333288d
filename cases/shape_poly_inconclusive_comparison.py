"""Compared a symbolic dimension with a constant in Python control flow while exporting with shape polymorphism.

`b >= 2` has no single answer for every `b`, so it cannot become a Python bool.
The fix states what the code may assume with a constraint on the symbolic shape (`b >= 2`).
"""
import jax
import jax.numpy as jnp
from jax import export


def head_or_all(x):
    if x.shape[0] >= 2:
        return x[:2]
    return x


EXPECTED = "jax._src.export.shape_poly.InconclusiveDimensionOperation"
ERROR_ID = "9dac7de2fd08c3c2"
TAGS = ["export", "shape_polymorphism"]
MESSAGE_CONTAINS = "is inconclusive"


def trigger():
    b, = export.symbolic_shape("b")
    return export.export(jax.jit(head_or_all))(jax.ShapeDtypeStruct((b,), jnp.float32))


def fixed():
    b, = export.symbolic_shape("b", constraints=["b >= 2"])
    return export.export(jax.jit(head_or_all))(jax.ShapeDtypeStruct((b,), jnp.float32))
