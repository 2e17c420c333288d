"""Called a function jitted with `in_shardings` using a keyword argument.

in_shardings is matched against the positional arguments only, so keyword arguments have no sharding.
The fix passes the argument positionally.
"""
import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

EXPECTED = "ValueError"
ERROR_ID = "86ce23ab9269616f"
TAGS = ["jit", "sharding", "in_shardings"]
MESSAGE_CONTAINS = "pjit does not support kwargs when in_shardings is specified"


def trigger():
    mesh = jax.make_mesh((8,), ("x",))
    step = jax.jit(lambda batch: batch * 2, in_shardings=NamedSharding(mesh, P("x")))
    return step(batch=jnp.ones(8))


def fixed():
    mesh = jax.make_mesh((8,), ("x",))
    step = jax.jit(lambda batch: batch * 2, in_shardings=NamedSharding(mesh, P("x")))
    return step(jnp.ones(8)).block_until_ready()
