"""Combined two arrays that were explicitly committed to different devices.

Committed arrays pin the computation to their devices; 0 and 1 conflict.
The fix puts both operands on the same device before combining them.
"""
import jax
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "a61bdb6a201e2c94"
TAGS = ["sharding", "devices", "jit"]
MESSAGE_CONTAINS = "Received incompatible devices for jitted computation"


def trigger():
    d0, d1 = jax.devices()[:2]
    a = jax.device_put(jnp.ones(2), d0)
    b = jax.device_put(jnp.ones(2), d1)
    return a + b


def fixed():
    d0, d1 = jax.devices()[:2]
    a = jax.device_put(jnp.ones(2), d0)
    b = jax.device_put(jax.device_put(jnp.ones(2), d1), d0)
    return (a + b).block_until_ready()
