"""Called a `custom_vjp` function whose parameter is keyword-only.

custom_vjp resolves every argument to a position (the bwd rule returns one cotangent per position); keyword-only parameters have none.
The fix makes the parameter positional (and marks it `nondiff_argnums` if it is not differentiated).
"""
import functools

import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "99aeee4747ca5f51"
TAGS = ["autodiff", "custom_vjp"]
MESSAGE_CONTAINS = "could not be resolved to positional-only arguments"


def trigger():
    @jax.custom_vjp
    def scale(x, *, factor):
        return x * factor

    scale.defvjp(lambda x, factor: (x * factor, factor), lambda f, g: (g * f,))
    return jax.grad(lambda x: scale(x, factor=2.0))(1.0)


def fixed():
    @functools.partial(jax.custom_vjp, nondiff_argnums=(1,))
    def scale(x, factor):
        return x * factor

    scale.defvjp(lambda x, factor: (x * factor, None), lambda factor, _, g: (g * factor,))
    return jax.grad(lambda x: scale(x, 2.0))(1.0).block_until_ready()
