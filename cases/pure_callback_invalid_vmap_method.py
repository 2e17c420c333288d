"""Passed a `vmap_method` that `jax.pure_callback` does not know ("vectorized").

The allowed values are "sequential", "sequential_unrolled", "expand_dims", "broadcast_all" and "legacy_vectorized".
The fix uses "expand_dims", which calls the vectorized host function once with the batch.
"""
import jax
import jax.numpy as jnp
import numpy as np

EXPECTED = "ValueError"
ERROR_ID = "306d3f84db49b122"
TAGS = ["callbacks", "vmap"]
MESSAGE_CONTAINS = "vmap_method must be on of the allowed methods"


def trigger():
    x = jnp.arange(3.0)
    return jax.pure_callback(np.sin, jax.ShapeDtypeStruct(x.shape, x.dtype), x, vmap_method="vectorized")


def fixed():
    x = jnp.arange(3.0)
    return jax.pure_callback(np.sin, jax.ShapeDtypeStruct(x.shape, x.dtype), x,
                             vmap_method="expand_dims").block_until_ready()
