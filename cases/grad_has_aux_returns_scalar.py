"""Used `has_aux=True` but the function returns only the loss, not `(loss, aux)`.

With `has_aux=True`, grad expects a two-element tuple and differentiates the first element.
The fix returns `(loss, aux)`.
"""
import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "a5a95f26f1433355"
TAGS = ["grad", "autodiff", "has_aux"]
MESSAGE_CONTAINS = "expected function with aux output to return a two-element tuple"


def trigger():
    def loss(w):
        return jnp.sum(w ** 2)

    return jax.grad(loss, has_aux=True)(jnp.ones(3))


def fixed():
    def loss(w):
        l = jnp.sum(w ** 2)
        return l, {"l2": l}

    g, aux = jax.grad(loss, has_aux=True)(jnp.ones(3))
    return g.block_until_ready(), aux
