"""Named a static argument that the jitted function does not have.

Every name in static_argnames must be a parameter of the function (a typo fails at `jit` time).
The fix names the real parameter.
"""
import jax
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "0e8be4c2a7e4517b"
TAGS = ["jit", "static_args"]
MESSAGE_CONTAINS = "Jitted function has invalid argnames"


def trigger():
    def pad_to(x, length):
        return jnp.pad(x, (0, length - x.shape[0]))

    return jax.jit(pad_to, static_argnames="size")(jnp.ones(3), 5)


def fixed():
    def pad_to(x, length):
        return jnp.pad(x, (0, length - x.shape[0]))

    return jax.jit(pad_to, static_argnames="length")(jnp.ones(3), 5).block_until_ready()
