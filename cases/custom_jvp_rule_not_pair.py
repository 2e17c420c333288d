"""A `custom_jvp` rule returned only the tangent instead of the pair (primal_out, tangent_out).

JVP rules compute both the output and its tangent.
The fix returns the pair.
"""
import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "f1dc5d0d4cdf201a"
TAGS = ["autodiff", "custom_jvp"]
MESSAGE_CONTAINS = "must produce a pair (list or tuple of length two) representing primal and tangent outputs"


def trigger():
    @jax.custom_jvp
    def softplus(x):
        return jnp.logaddexp(x, 0.0)

    @softplus.defjvp
    def softplus_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return jax.nn.sigmoid(x) * t

    return jax.grad(softplus)(1.0)


def fixed():
    @jax.custom_jvp
    def softplus(x):
        return jnp.logaddexp(x, 0.0)

    @softplus.defjvp
    def softplus_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return softplus(x), jax.nn.sigmoid(x) * t

    return jax.grad(softplus)(1.0).block_until_ready()
