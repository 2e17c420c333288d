"""Asked for GPU devices (`jax.devices("gpu")`) on a machine where JAX only has a CPU backend.

Only platforms whose plugin loaded are present; a CPU-only install (or a failed CUDA plugin) has none of type gpu.
The fix asks for the default devices and checks the platform instead of assuming one.
"""
import jax
import jax.numpy as jnp

EXPECTED = "RuntimeError"
ERROR_ID = "18f7454a1edec9aa"
TAGS = ["devices", "backends", "installation"]
MESSAGE_CONTAINS = "Unknown backend: 'gpu' requested, but no platforms that are instances of gpu are present"


def trigger():
    gpu = jax.devices("gpu")[0]
    return jax.device_put(jnp.ones(3), gpu)


def fixed():
    device = jax.devices()[0]
    if device.platform != "gpu":
        print(f"no GPU; running on {jax.default_backend()}")
    return jax.device_put(jnp.ones(3), device).block_until_ready()
