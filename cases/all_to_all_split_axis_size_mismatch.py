"""Called `lax.all_to_all` where the split axis length (3) differs from the axis size (8).

all_to_all splits `split_axis` into one chunk per device, so its length must equal the
number of devices along `axis_name`. The fix uses a per-shard block with 8 rows.
"""
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

EXPECTED = "ValueError"
ERROR_ID = "e774c3498d76384e"
TAGS = ["shard_map", "collectives", "all_to_all"]
MESSAGE_CONTAINS = "all_to_all requires the size of the mapped axis axis_name to equal x.shape[split_axis]"


def _run(rows_per_shard):
    mesh = jax.make_mesh((8,), ("x",))
    body = lambda b: jax.lax.all_to_all(b, "x", split_axis=0, concat_axis=0)
    f = jax.shard_map(body, mesh=mesh, in_specs=P("x"), out_specs=P("x"))
    x = jax.device_put(jnp.ones((8 * rows_per_shard, 2)), NamedSharding(mesh, P("x")))
    return f(x)


def trigger():
    return _run(3)


def fixed():
    return _run(8).block_until_ready()
