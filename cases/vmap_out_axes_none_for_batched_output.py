"""Set `out_axes=None` for an output that actually depends on the mapped axis.

`out_axes=None` means "this output is the same for every batch element"; a batched
output cannot be un-mapped. The fix returns it stacked along axis 0.
"""
import jax
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "a0d8f938b22537b4"
FORMER_ERROR_IDS = ["a7dc1bcd88d78fbf"]  # before jax 0.12.1
TAGS = ["vmap", "out_axes"]
MESSAGE_CONTAINS = "got axis spec None but output was batched on axis 0"


def trigger():
    return jax.vmap(lambda x: x * 2, out_axes=None)(jnp.arange(3.0))


def fixed():
    return jax.vmap(lambda x: x * 2, out_axes=0)(jnp.arange(3.0)).block_until_ready()
