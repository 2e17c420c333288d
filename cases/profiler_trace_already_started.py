"""Started a profiler trace while another one was running.

Only one trace may run at a time in a process.
The fix uses the `jax.profiler.trace` context manager, which stops the trace when the block ends.
"""
import tempfile

import jax
import jax.numpy as jnp

EXPECTED = "RuntimeError"
ERROR_ID = "19fbe2f7d18cf0df"
TAGS = ["profiler", "debugging"]
MESSAGE_CONTAINS = "Profile has already been started"


def trigger():
    log_dir = tempfile.mkdtemp()
    jax.profiler.start_trace(log_dir)
    try:
        jnp.ones(3).block_until_ready()
        jax.profiler.start_trace(log_dir)  # e.g. a second training run in the same notebook
    finally:
        jax.profiler.stop_trace()


def fixed():
    log_dir = tempfile.mkdtemp()
    with jax.profiler.trace(log_dir):
        jnp.ones(3).block_until_ready()
    with jax.profiler.trace(log_dir):
        jnp.ones(3).block_until_ready()
