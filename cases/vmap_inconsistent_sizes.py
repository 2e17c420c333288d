"""vmapped over two arguments whose mapped axes have different lengths (3 vs 4).

All mapped axes form one batch dimension, so their sizes must agree.
The fix maps only the batched argument and broadcasts the other (`in_axes=(0, None)`).
"""
import jax
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "0f81f39606756e04"
TAGS = ["vmap", "in_axes", "shapes"]
MESSAGE_CONTAINS = "vmap got inconsistent sizes for array axes to be mapped"


def trigger():
    xs = jnp.ones((3, 4))
    w = jnp.arange(4.0)
    return jax.vmap(jnp.dot)(xs, w)


def fixed():
    xs = jnp.ones((3, 4))
    w = jnp.arange(4.0)
    return jax.vmap(jnp.dot, in_axes=(0, None))(xs, w).block_until_ready()
