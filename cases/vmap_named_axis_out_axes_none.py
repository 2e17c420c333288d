"""Returned a per-example value from a named `vmap` whose `out_axes` is None.

With `axis_name` set, `out_axes=None` promises the output is the same for every example; here it is not.
The fix reduces over the named axis (`lax.pmean`) so the output really is unmapped.
"""
import jax
import jax.numpy as jnp
from jax import lax

EXPECTED = "ValueError"
ERROR_ID = "383a12981c8342d0"
TAGS = ["vmap", "out_axes", "collectives"]
MESSAGE_CONTAINS = "vmap has mapped output (axis_name=batch) but out_axes is None"


def trigger():
    centre = jax.vmap(lambda x: x - x.mean(), axis_name="batch", out_axes=None)
    return centre(jnp.arange(6.0).reshape(3, 2))


def fixed():
    mean = jax.vmap(lambda x: lax.pmean(x, "batch"), axis_name="batch", out_axes=None)
    return mean(jnp.arange(6.0).reshape(3, 2)).block_until_ready()
