"""A `custom_vjp` backward rule returned a cotangent whose shape differs from its input's.

The bwd rule must return one cotangent per primal argument, each shaped like that argument.
The fix broadcasts the incoming scalar cotangent to the input's shape.
"""
import jax
import jax.numpy as jnp


@jax.custom_vjp
def total(x):
    return x.sum()


def total_fwd(x):
    return x.sum(), x.shape


def total_bwd_wrong(shape, g):
    return (jnp.ones(2) * g,)


def total_bwd(shape, g):
    return (jnp.full(shape, g),)


EXPECTED = "ValueError"
ERROR_ID = "9bc357147b50f413"
TAGS = ["autodiff", "custom_vjp", "shapes"]
MESSAGE_CONTAINS = "so the shapes do not match"


def trigger():
    total.defvjp(total_fwd, total_bwd_wrong)
    return jax.grad(total)(jnp.arange(3.0))


def fixed():
    total.defvjp(total_fwd, total_bwd)
    return jax.grad(total)(jnp.arange(3.0)).block_until_ready()
