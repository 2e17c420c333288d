"""Called `jax.tree.map` on two pytrees with different dict keys.

Every extra tree must have the same structure as the first (here 'b' vs 'bias').
The fix uses consistent keys in both trees.
"""
import jax
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "5719ca739bd73109"
FORMER_ERROR_IDS = ["235563d79ef62788"]  # the raise read as its argument until extractor 12
TAGS = ["pytrees", "tree_util"]
MESSAGE_CONTAINS = "pytree structure error: different pytree metadata at key path"


def trigger():
    params = {"w": jnp.ones(3), "b": jnp.zeros(())}
    grads = {"w": jnp.ones(3), "bias": jnp.ones(())}
    return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)


def fixed():
    params = {"w": jnp.ones(3), "b": jnp.zeros(())}
    grads = {"w": jnp.ones(3), "b": jnp.ones(())}
    return jax.block_until_ready(jax.tree.map(lambda p, g: p - 0.1 * g, params, grads))
