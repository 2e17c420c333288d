"""Called the function returned by `jax.vjp` with a cotangent of the wrong shape.

The cotangent must have exactly the shape/dtype of the primal output (here float32[3]).
The fix passes `jnp.ones_like(y)`.
"""
import jax
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "2c033d0f757ba45a"
TAGS = ["grad", "autodiff", "vjp"]
MESSAGE_CONTAINS = "unexpected JAX type (e.g. shape/dtype) for argument to VJP function"


def trigger():
    y, f_vjp = jax.vjp(jnp.sin, jnp.arange(3.0))
    return f_vjp(jnp.ones(4))


def fixed():
    y, f_vjp = jax.vjp(jnp.sin, jnp.arange(3.0))
    (g,) = f_vjp(jnp.ones_like(y))
    return g.block_until_ready()
