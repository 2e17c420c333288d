"""Set a configuration option that does not exist (a misspelling of `jax_enable_x64`).

`jax.config.update` only accepts registered option names.
The fix uses the real name; here through the `jax.enable_x64` context manager, so the setting stays local.
"""
import jax
import jax.numpy as jnp

EXPECTED = "AttributeError"
ERROR_ID = "92473647c753699d"
TAGS = ["config", "dtypes", "x64"]
MESSAGE_CONTAINS = "Unrecognized config option: jax_enable_float64"


def trigger():
    jax.config.update("jax_enable_float64", True)
    return jnp.arange(3.0)


def fixed():
    with jax.enable_x64(True):
        x = jnp.arange(3.0, dtype=jnp.float64)
    return x.block_until_ready()
