"""Called a `jax.custom_vjp` function without ever registering its fwd/bwd rules.

A custom_vjp function needs `f.defvjp(fwd, bwd)` before it can be called at all.
The fix registers the rules.
"""
import jax
import jax.numpy as jnp


EXPECTED = "AttributeError"
ERROR_ID = "dc465bdc4195d03e"
TAGS = ["custom_vjp", "autodiff"]
MESSAGE_CONTAINS = "No VJP defined for custom_vjp function clip_gradient using defvjp."


def trigger():
    @jax.custom_vjp
    def clip_gradient(x):
        return x

    return jax.grad(clip_gradient)(2.0)  # no clip_gradient.defvjp(...) was called


def fixed():
    @jax.custom_vjp
    def clip_gradient(x):
        return x

    clip_gradient.defvjp(lambda x: (x, None), lambda _, g: (jnp.clip(g, -1.0, 1.0),))
    return jax.grad(lambda x: clip_gradient(3.0 * x))(2.0).block_until_ready()
