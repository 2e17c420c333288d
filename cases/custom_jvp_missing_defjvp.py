"""Differentiated a `custom_jvp` function before registering its rule with `defjvp`.

A `custom_jvp` function has no derivative until `defjvp` (or `defjvps`) gives it one.
The fix registers the JVP rule.
"""
import jax
import jax.numpy as jnp

EXPECTED = "AttributeError"
ERROR_ID = "f3c7ccbf5f2696f3"
TAGS = ["autodiff", "custom_jvp"]
MESSAGE_CONTAINS = "No JVP defined for custom_jvp function"


def trigger():
    @jax.custom_jvp
    def softplus(x):
        return jnp.logaddexp(x, 0.0)

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
