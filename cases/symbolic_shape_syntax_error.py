"""Gave `export.symbolic_shape` a specification it cannot parse.

Each comma-separated dimension must be an integer, a name, or an expression of them (`2*b + 1`).
The fix writes a complete expression for every dimension.
"""
from jax import export

EXPECTED = "ValueError"
ERROR_ID = "58424345513043c1"
TAGS = ["export", "shape_polymorphism"]
MESSAGE_CONTAINS = "syntax error in symbolic shape"


def trigger():
    return export.symbolic_shape("batch, seq+")


def fixed():
    return export.symbolic_shape("batch, seq + 1")
