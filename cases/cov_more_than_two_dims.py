"""Called `jnp.cov` on a 3-D batch of observations.

cov takes one matrix of variables x observations (at most 2-D).
The fix vmaps `jnp.cov` over the batch axis.
"""
import jax
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "2abf1bcc90116f9e"
TAGS = ["numpy", "statistics", "shapes"]
MESSAGE_CONTAINS = "m has more than 2 dimensions"


def trigger():
    batch = jnp.arange(24.0).reshape(2, 3, 4)  # batch, variables, observations
    return jnp.cov(batch)


def fixed():
    batch = jnp.arange(24.0).reshape(2, 3, 4)
    return jax.vmap(jnp.cov)(batch).block_until_ready()
