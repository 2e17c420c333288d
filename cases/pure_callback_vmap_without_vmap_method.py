"""vmapped a `jax.pure_callback` that was created without a `vmap_method`.

JAX must be told how to batch a host callback: call it per example, or once with a batch.
The fix passes `vmap_method="sequential"` (or "expand_dims"/"broadcast_all" when the host function is vectorized).
"""
import jax
import jax.numpy as jnp
import numpy as np

EXPECTED = "NotImplementedError"
ERROR_ID = "86e6e605082a1a31"
TAGS = ["callbacks", "vmap"]
MESSAGE_CONTAINS = "vmap is only supported for the pure_callback primitive when vmap_method is one of"


def trigger():
    def host_sin(x):
        return jax.pure_callback(np.sin, jax.ShapeDtypeStruct(x.shape, x.dtype), x)

    return jax.vmap(host_sin)(jnp.arange(3.0))


def fixed():
    def host_sin(x):
        return jax.pure_callback(np.sin, jax.ShapeDtypeStruct(x.shape, x.dtype), x, vmap_method="sequential")

    return jax.vmap(host_sin)(jnp.arange(3.0)).block_until_ready()
