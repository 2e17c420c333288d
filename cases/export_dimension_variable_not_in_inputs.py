"""Exported a function that uses a symbolic dimension no input shape contains.

At call time each dimension variable is solved from the actual input shapes; one that appears in none cannot be solved.
The fix derives the size from an input (`x.shape[0]`), whose symbolic dimension is known.
"""
import jax
import jax.numpy as jnp
from jax import export

EXPECTED = "jax._src.export.shape_poly.UnexpectedDimVar"
ERROR_ID = "c15565b704dfc6b5"
TAGS = ["export", "shape_polymorphism"]
MESSAGE_CONTAINS = "that is not appearing in the shapes of the function arguments"


def trigger():
    n, = export.symbolic_shape("n")
    f = jax.jit(lambda x: x.sum() * jnp.ones(n))
    return export.export(f)(jax.ShapeDtypeStruct((3,), jnp.float32))


def fixed():
    n, = export.symbolic_shape("n")
    f = jax.jit(lambda x: x.sum() * jnp.ones(x.shape[0]))
    return export.export(f)(jax.ShapeDtypeStruct((n,), jnp.float32))
