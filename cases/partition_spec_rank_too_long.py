"""Used a 2-entry PartitionSpec as the in_sharding of a 1-D jit argument.

A PartitionSpec may not have more entries than the array has dimensions.
The fix shards the single dimension over both mesh axes with a tuple entry: P(('x', 'y')).
"""
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

EXPECTED = "ValueError"
ERROR_ID = "2adc9ba724374b81"
TAGS = ["sharding", "partitionspec", "jit"]
MESSAGE_CONTAINS = "is only valid for values of rank at least 2, but was applied to a value of rank 1"


def trigger():
    mesh = jax.make_mesh((4, 2), ("x", "y"))
    f = jax.jit(lambda v: v * 2, in_shardings=NamedSharding(mesh, P("x", "y")))
    return f(jnp.arange(8.0))


def fixed():
    mesh = jax.make_mesh((4, 2), ("x", "y"))
    f = jax.jit(lambda v: v * 2, in_shardings=NamedSharding(mesh, P(("x", "y"))))
    return f(jnp.arange(8.0)).block_until_ready()
