"""A `jax.custom_jvp` rule returned a tangent whose shape differs from the primal output.

The tangent output must have the same shape and dtype as the primal output.
The fix returns a tangent computed elementwise from the input tangent.
"""
import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "a249f8518dde23ee"
TAGS = ["grad", "custom_jvp", "shapes"]
MESSAGE_CONTAINS = "Custom JVP rule must produce primal and tangent outputs with corresponding shapes and dtypes"


def trigger():
    @jax.custom_jvp
    def softplus(x):
        return jnp.logaddexp(x, 0.0)

    @softplus.defjvp
    def softplus_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return softplus(x), jnp.sum(jax.nn.sigmoid(x) * t)  # a scalar tangent for a (3,) output

    return jax.jvp(softplus, (jnp.arange(3.0),), (jnp.ones(3),))


def fixed():
    @jax.custom_jvp
    def softplus(x):
        return jnp.logaddexp(x, 0.0)

    @softplus.defjvp
    def softplus_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return softplus(x), jax.nn.sigmoid(x) * t  # elementwise: the output's shape

    return jax.block_until_ready(jax.jvp(softplus, (jnp.arange(3.0),), (jnp.ones(3),)))
