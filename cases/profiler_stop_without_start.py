"""Stopped a profiler trace that was never started (or was already stopped).

`stop_trace` needs a running trace from `start_trace`.
The fix pairs the calls, here through the `jax.profiler.trace` context manager.
"""
import tempfile

import jax
import jax.numpy as jnp

EXPECTED = "RuntimeError"
ERROR_ID = "549f89340ca0eff8"
TAGS = ["profiler", "debugging"]
MESSAGE_CONTAINS = "No profile started"


def trigger():
    jnp.ones(3).block_until_ready()
    jax.profiler.stop_trace()


def fixed():
    with jax.profiler.trace(tempfile.mkdtemp()):
        jnp.ones(3).block_until_ready()
