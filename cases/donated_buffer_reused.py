"""Used an array again after donating it to a jitted function.

`donate_argnums` lets XLA reuse the input's memory for the output, so the input is deleted after the call.
The fix uses the returned value from then on (or does not donate an input that is still needed).
"""
import jax
import jax.numpy as jnp

EXPECTED = "RuntimeError"
ERROR_ID = "0ef544f7f16a2efe"
TAGS = ["jit", "donation", "memory"]
MESSAGE_CONTAINS = "Array has been deleted"


def trigger():
    update = jax.jit(lambda params: params - 0.1, donate_argnums=0)
    params = jnp.ones(4)
    new_params = update(params)
    return params + new_params


def fixed():
    update = jax.jit(lambda params: params - 0.1, donate_argnums=0)
    params = jnp.ones(4)
    params = update(params)
    return (params + params).block_until_ready()
