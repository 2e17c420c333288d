"""A `custom_vjp` forward rule returned only the output, not (output, residuals).

fwd must return a pair: the primal output and whatever the bwd rule needs.
The fix returns `(y, residuals)`.
"""
import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "e6e90b1c9ad6595e"
TAGS = ["autodiff", "custom_vjp"]
MESSAGE_CONTAINS = "must produce a pair (list or tuple of length two)"


def trigger():
    @jax.custom_vjp
    def scaled_tanh(x):
        return jnp.tanh(x)

    scaled_tanh.defvjp(lambda x: jnp.tanh(x), lambda y, g: (g * (1 - y ** 2),))
    return jax.grad(scaled_tanh)(0.5)


def fixed():
    @jax.custom_vjp
    def scaled_tanh(x):
        return jnp.tanh(x)

    def fwd(x):
        y = jnp.tanh(x)
        return y, y

    scaled_tanh.defvjp(fwd, lambda y, g: (g * (1 - y ** 2),))
    return jax.grad(scaled_tanh)(0.5).block_until_ready()
