"""Used a Python `if` on a traced value inside a jitted function.

Under jit, `x > 0` is an abstract tracer with no concrete value, so `bool()` on it fails.
The fix expresses the branch with `jnp.where` (or `lax.cond`) so it stays in the graph.
"""
import jax
import jax.numpy as jnp

EXPECTED = "jax.errors.TracerBoolConversionError"
ERROR_ID = "27cc8dc922f17076"
TAGS = ["jit", "tracing"]
MESSAGE_CONTAINS = "Attempted boolean conversion of traced array"


def trigger():
    @jax.jit
    def relu(x):
        if x > 0:
            return x
        return 0.0 * x

    return relu(jnp.float32(1.5))


def fixed():
    @jax.jit
    def relu(x):
        return jnp.where(x > 0, x, 0.0 * x)

    return relu(jnp.float32(1.5)).block_until_ready()
