"""Used the same mesh axis for two dimensions of one `PartitionSpec`.

A mesh axis can shard at most one dimension of an array; `P("x", "x")` would need its devices twice.
The fix shards the second dimension over the other mesh axis (or leaves it unsharded).
"""
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

EXPECTED = "jax._src.named_sharding.DuplicateSpecError"
ERROR_ID = "7d5bb1b30a804c3b"
TAGS = ["sharding", "partition_spec"]
MESSAGE_CONTAINS = "can map every mesh axis to at most one positional dimension"


def trigger():
    mesh = jax.make_mesh((2, 4), ("x", "y"))
    return jax.device_put(jnp.ones((4, 8)), NamedSharding(mesh, P("x", "x")))


def fixed():
    mesh = jax.make_mesh((2, 4), ("x", "y"))
    return jax.device_put(jnp.ones((4, 8)), NamedSharding(mesh, P("x", "y"))).block_until_ready()
