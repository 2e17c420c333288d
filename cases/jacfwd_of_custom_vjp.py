"""Applied forward-mode differentiation (`jacfwd`) to a function defined with `custom_vjp`.

A `custom_vjp` rule only says how to run reverse mode; JAX cannot derive a JVP from it.
The fix uses reverse mode (`jax.jacrev`), or defines the rule with `custom_jvp` when forward mode is needed.
"""
import jax
import jax.numpy as jnp


@jax.custom_vjp
def clip_gradient(x):
    return x


def clip_gradient_fwd(x):
    return x, None


def clip_gradient_bwd(_, g):
    return (jnp.clip(g, -1.0, 1.0),)

EXPECTED = "TypeError"
ERROR_ID = "f6cd3c332fc67830"
TAGS = ["autodiff", "custom_vjp", "jvp"]
MESSAGE_CONTAINS = "can't apply forward-mode autodiff (jvp) to a custom_vjp function"


def trigger():
    clip_gradient.defvjp(clip_gradient_fwd, clip_gradient_bwd)
    return jax.jacfwd(lambda x: clip_gradient(x) ** 2)(jnp.arange(3.0))


def fixed():
    clip_gradient.defvjp(clip_gradient_fwd, clip_gradient_bwd)
    return jax.jacrev(lambda x: clip_gradient(x) ** 2)(jnp.arange(3.0)).block_until_ready()
