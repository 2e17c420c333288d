"""Called `jax.lax.pcast(x, 'x', to='varying')` on a value that is already varying over 'x'.

An input sharded with in_specs=P('x') is already varying; invariant->varying casts only apply
to replicated values. The fix casts only the replicated operand.
"""
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

EXPECTED = "ValueError"
ERROR_ID = "6edbdba82b83db07"
TAGS = ["shard_map", "vma", "pcast"]
MESSAGE_CONTAINS = "Unsupported pcast from=varying, to='varying'"


def _run(body):
    mesh = jax.make_mesh((8,), ("x",))
    f = jax.shard_map(body, mesh=mesh, in_specs=(P("x"), P()), out_specs=P("x"))
    a = jax.device_put(jnp.arange(16.0), NamedSharding(mesh, P("x")))
    return f(a, jnp.ones(2))


def trigger():
    return _run(lambda a, w: jax.lax.pcast(a, "x", to="varying") * w)


def fixed():
    return _run(lambda a, w: a * jax.lax.pcast(w, "x", to="varying")).block_until_ready()
