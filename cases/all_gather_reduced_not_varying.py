"""all_gather(..., to='reduced') inside shard_map on a value that is not varying over the mesh axis.

`jax.lax.all_gather(x, axis, to='reduced')` dispatches to the Varying -> Reduced collective
`all_gather_reduced`, whose abstract eval rejects inputs that are invariant (replicated, P()).
The fix marks the replicated value as varying with `jax.lax.pcast(..., to='varying')` first and
declares the reduced output with `out_specs=P(reduced={'x'})`.
"""
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

EXPECTED = "ValueError"
ERROR_ID = "252d5ba9437acc7a"
TAGS = ["shard_map", "collectives", "vma"]
MESSAGE_CONTAINS = "all_gather_reduced only accepts inputs that are varying. Got"


def trigger():
    mesh = jax.make_mesh((8,), ("x",))

    def body(x):  # x is invariant across 'x' because in_specs=P()
        return jax.lax.all_gather(x, "x", to="reduced")

    return jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P())(jnp.arange(4.0))


def fixed():
    mesh = jax.make_mesh((8,), ("x",))

    def body(x):
        x = jax.lax.pcast(x, "x", to="varying")  # invariant -> varying
        return jax.lax.all_gather(x, "x", to="reduced")

    out = jax.shard_map(body, mesh=mesh, in_specs=P(),
                        out_specs=P(reduced={"x"}))(jnp.arange(4.0))
    return out.block_until_ready()
