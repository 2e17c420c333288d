"""Indexed with a data-dependent boolean mask inside jit (`x[x > 0]`).

The result size depends on the values, but jit needs static shapes.
The fix keeps the shape fixed with `jnp.where` (or use `jnp.nonzero(..., size=N)`).
"""
import jax
import jax.numpy as jnp

EXPECTED = "jax.errors.NonConcreteBooleanIndexError"
ERROR_ID = "d593e0ffc6f8f83a"
TAGS = ["indexing", "jit", "shapes"]
MESSAGE_CONTAINS = "Array boolean indices must be concrete"


def trigger():
    return jax.jit(lambda x: x[x > 0].sum())(jnp.array([-1.0, 2.0, 3.0]))


def fixed():
    f = jax.jit(lambda x: jnp.where(x > 0, x, 0.0).sum())
    return f(jnp.array([-1.0, 2.0, 3.0])).block_until_ready()
