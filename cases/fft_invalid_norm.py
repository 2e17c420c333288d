"""Passed `jnp.fft.fft` a normalisation name it does not know ("orthonormal").

norm is one of "backward" (default), "ortho" or "forward".
The fix writes "ortho".
"""
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "b7dcd65679123ff4"
TAGS = ["fft"]
MESSAGE_CONTAINS = "Invalid norm value"


def trigger():
    return jnp.fft.fft(jnp.ones(8), norm="orthonormal")


def fixed():
    return jnp.fft.fft(jnp.ones(8), norm="ortho").block_until_ready()
