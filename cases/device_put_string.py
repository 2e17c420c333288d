"""Called `jax.device_put` on a Python string.

Only arrays, numbers and pytrees of them can live on a device.
The fix keeps the text on the host and puts only numeric data on the device.
"""
import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "6453bc13c55fa65c"
TAGS = ["device_put", "dtypes"]
MESSAGE_CONTAINS = "is not a valid JAX type"


def trigger():
    batch = {"label": "cat", "pixels": jnp.ones((2, 2))}
    return jax.device_put(batch)


def fixed():
    batch = {"label": "cat", "pixels": jnp.ones((2, 2))}
    on_device = {"pixels": jax.device_put(batch["pixels"])}
    return jax.block_until_ready(on_device)
