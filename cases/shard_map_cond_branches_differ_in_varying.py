"""Inside shard_map, a `lax.cond` whose branches return a per-shard value and a constant.

With varying-manual-axes checking, `b` is varying over 'x' but `jnp.zeros` is invariant, so
the branch types differ. The fix casts the constant with `jax.lax.pcast(..., to='varying')`.
"""
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

EXPECTED = "TypeError"
ERROR_ID = "bfa76897cbe40c8a"
TAGS = ["shard_map", "vma", "control_flow", "cond"]
MESSAGE_CONTAINS = "so the manual axis types do not match"


def _run(make_zeros):
    mesh = jax.make_mesh((8,), ("x",))
    body = lambda b: jax.lax.cond(b.sum() > 4, lambda: b, make_zeros)
    f = jax.shard_map(body, mesh=mesh, in_specs=P("x"), out_specs=P("x"))
    return f(jax.device_put(jnp.arange(16.0), NamedSharding(mesh, P("x"))))


def trigger():
    return _run(lambda: jnp.zeros(2))


def fixed():
    return _run(lambda: jax.lax.pcast(jnp.zeros(2), "x", to="varying")).block_until_ready()
