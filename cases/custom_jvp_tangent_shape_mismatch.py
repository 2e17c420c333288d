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


def _make(good):
    @jax.custom_jvp
    def softplus(x):
        return jnp.logaddexp(x, 0.0)

    @softplus.defjvp
    def _jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        tan = jax.nn.sigmoid(x) * t if good else jnp.sum(jax.nn.sigmoid(x) * t)
        return softplus(x), tan

    return softplus


def trigger():
    return jax.jvp(_make(False), (jnp.arange(3.0),), (jnp.ones(3),))


def fixed():
    return jax.block_until_ready(jax.jvp(_make(True), (jnp.arange(3.0),), (jnp.ones(3),)))
