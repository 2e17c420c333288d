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


def trigger():
    @jax.custom_vjp
    def double(x):
        return 2 * x

    def double_fwd(x):
        return 2 * x, None

    def double_bwd(_, g):
        return 2 * g  # a bare array: bwd must return a tuple, one cotangent per argument

    double.defvjp(double_fwd, double_bwd)
    return jax.grad(double)(1.0)


def fixed():
    @jax.custom_vjp
    def double(x):
        return 2 * x

    def double_fwd(x):
        return 2 * x, None

    def double_bwd(_, g):
        return (2 * g,)  # a tuple of one cotangent

    double.defvjp(double_fwd, double_bwd)
    return jax.grad(double)(1.0).block_until_ready()
