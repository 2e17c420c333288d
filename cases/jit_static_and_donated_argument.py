"""Marked the same argument as both static and donated in `jax.jit`.

A static argument is a Python value baked into the compiled code; there is no device buffer to donate.
The fix donates only array arguments.
"""
import jax
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "2b42dfda4fde1626"
TAGS = ["jit", "static_args", "donation"]
MESSAGE_CONTAINS = "static_argnames and donate_argnames cannot intersect"


def trigger():
    def step(state, lr):
        return state - lr

    return jax.jit(step, static_argnames="lr", donate_argnames=("state", "lr"))(jnp.ones(3), 0.1)


def fixed():
    def step(state, lr):
        return state - lr

    return jax.jit(step, static_argnames="lr", donate_argnames="state")(jnp.ones(3), 0.1).block_until_ready()
