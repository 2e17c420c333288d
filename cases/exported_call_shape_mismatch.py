"""Called a `jax.export` artifact with an input shape it was not exported for.

An exported function accepts only shapes that match its input types; a constant dimension must match exactly.
The fix exports with a symbolic dimension so any length is accepted.
"""
import jax
import jax.numpy as jnp
from jax import export

EXPECTED = "ValueError"
ERROR_ID = "67aec5e330411210"
TAGS = ["export", "shapes", "shape_polymorphism"]
MESSAGE_CONTAINS = "Shape mismatch for args[0].shape[0] (expected same constant)"


def trigger():
    exp = export.export(jax.jit(lambda x: x * 2))(jax.ShapeDtypeStruct((3,), jnp.float32))
    return exp.call(jnp.ones(4))


def fixed():
    n, = export.symbolic_shape("n")
    exp = export.export(jax.jit(lambda x: x * 2))(jax.ShapeDtypeStruct((n,), jnp.float32))
    return exp.call(jnp.ones(4)).block_until_ready()
