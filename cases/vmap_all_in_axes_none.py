"""Called vmap with `in_axes=None` for every argument and no `axis_size`.

With nothing to map over, vmap cannot infer the batch size.
The fix maps at least one argument, or passes `axis_size` explicitly.
"""
import jax
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "f81aef38d920d4ea"
TAGS = ["vmap", "in_axes"]
MESSAGE_CONTAINS = "vmap must have at least one non-None value in in_axes or axis_size must be specified"


def trigger():
    return jax.vmap(lambda x: x + 1, in_axes=None)(jnp.arange(3.0))


def fixed():
    f = jax.vmap(lambda x: x + 1, in_axes=None, axis_size=2)
    return f(jnp.arange(3.0)).block_until_ready()
