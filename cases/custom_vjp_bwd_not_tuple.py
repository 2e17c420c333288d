"""A `jax.custom_vjp` backward rule returned a bare array instead of a tuple.

The bwd rule must return a tuple with one cotangent per primal argument, even for one arg.
The fix returns `(g * 2,)`.
"""
import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "ec6489d3ed9933b3"
TAGS = ["grad", "custom_vjp", "pytrees"]
MESSAGE_CONTAINS = "Custom VJP bwd rule must produce an output with the same container (pytree) structure"


def _make(return_tuple):
    @jax.custom_vjp
    def double(x):
        return 2 * x

    def fwd(x):
        return 2 * x, None

    def bwd(_, g):
        return (2 * g,) if return_tuple else 2 * g

    double.defvjp(fwd, bwd)
    return double


def trigger():
    return jax.grad(_make(False))(1.0)


def fixed():
    return jax.grad(_make(True))(1.0).block_until_ready()
