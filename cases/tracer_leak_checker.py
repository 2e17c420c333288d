"""With the tracer-leak checker on, a jitted function stored its traced argument in a Python list.

`jax_check_tracer_leaks` reports any tracer still referenced after its transformation ends.
The fix returns the value from the function instead of saving it as a side effect.
"""
import jax
import jax.numpy as jnp

EXPECTED = "Exception"
ERROR_ID = "d37d6a20d64787bd"
TAGS = ["jit", "tracing", "side_effects", "debugging"]
MESSAGE_CONTAINS = "Leaked trace"


def trigger():
    seen = []

    @jax.jit
    def step(x):
        seen.append(x)
        return x * 2

    with jax.checking_leaks():
        step(jnp.ones(3))


def fixed():
    @jax.jit
    def step(x):
        return x * 2, x

    with jax.checking_leaks():
        out, seen = step(jnp.ones(3))
    return jax.block_until_ready((out, seen))
