"""vmapped a `custom_vmap` function before defining its rule with `def_vmap`.

A `custom_vmap` function has no batching behaviour of its own until `def_vmap` registers one.
The fix registers the rule.
"""
import jax
import jax.numpy as jnp
from jax import custom_batching

EXPECTED = "AttributeError"
ERROR_ID = "bbdbaa665cea7c12"
TAGS = ["vmap", "custom_batching"]
MESSAGE_CONTAINS = "No batching rule defined for custom_vmap function"


def trigger():
    @custom_batching.custom_vmap
    def double(x):
        return 2 * x

    return jax.vmap(double)(jnp.arange(3.0))


def fixed():
    @custom_batching.custom_vmap
    def double(x):
        return 2 * x

    @double.def_vmap
    def double_vmap(axis_size, in_batched, x):
        return 2 * x, in_batched[0]

    return jax.vmap(double)(jnp.arange(3.0)).block_until_ready()
