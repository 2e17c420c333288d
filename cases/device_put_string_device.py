"""Passed a device name string ("cpu") to `jax.device_put`.

device_put takes a `jax.Device`, a `Sharding`, a `Format`, a memory space or None, not a name.
The fix looks the device up with `jax.devices("cpu")[0]`.
"""
import jax
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "ea9a7390495122a9"
TAGS = ["device_put", "devices"]
MESSAGE_CONTAINS = "`jax.device_put` only accepts `None`, `jax.sharding.Sharding`, `jax.Device`"


def trigger():
    return jax.device_put(jnp.ones(3), "cpu")


def fixed():
    return jax.device_put(jnp.ones(3), jax.devices("cpu")[0]).block_until_ready()
