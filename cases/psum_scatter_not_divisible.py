"""Called tiled `lax.psum_scatter` on a block whose scatter dimension is not divisible by 8.

A tiled reduce-scatter splits the dimension evenly across the 8 devices of axis 'x'.
The fix scatters a block whose leading dimension is a multiple of 8.
"""
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

EXPECTED = "ValueError"
ERROR_ID = "6dc19f2531735a38"
FORMER_ERROR_IDS = ["70d2f68c4427d41d"]  # before jax 0.12.1
TAGS = ["shard_map", "collectives", "psum_scatter"]
MESSAGE_CONTAINS = "tiled reduce_scatter operand scatter dimension size 3 must be divisible by shard_count 8"


def _run(rows_per_shard):
    mesh = jax.make_mesh((8,), ("x",))
    body = lambda b: jax.lax.psum_scatter(b, "x", tiled=True)
    f = jax.shard_map(body, mesh=mesh, in_specs=P("x"), out_specs=P("x"))
    return f(jax.device_put(jnp.ones(8 * rows_per_shard), NamedSharding(mesh, P("x"))))


def trigger():
    return _run(3)


def fixed():
    return _run(8).block_until_ready()
