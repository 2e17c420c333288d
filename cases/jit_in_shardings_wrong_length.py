"""Gave jit an `in_shardings` tuple whose length differs from the number of arguments.

`in_shardings` must be a pytree prefix of the positional-argument tuple.
The fix supplies exactly one entry per positional argument.
"""
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

EXPECTED = "ValueError"
ERROR_ID = "7c43fd50e9d22047"
TAGS = ["pytrees", "sharding", "jit"]
MESSAGE_CONTAINS = "pjit in_shardings specification must be a tree prefix of the positional arguments tuple"


def trigger():
    mesh = jax.make_mesh((8,), ("x",))
    s = NamedSharding(mesh, P("x"))
    f = jax.jit(lambda a, b: a + b, in_shardings=(s, s, s))
    return f(jnp.ones(8), jnp.ones(8))


def fixed():
    mesh = jax.make_mesh((8,), ("x",))
    s = NamedSharding(mesh, P("x"))
    f = jax.jit(lambda a, b: a + b, in_shardings=(s, s))
    return f(jnp.ones(8), jnp.ones(8)).block_until_ready()
