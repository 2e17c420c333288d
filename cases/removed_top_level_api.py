"""Used a top-level `jax` function that was removed (`tree_multimap`), as older tutorials do.

The name is gone from the `jax` namespace (it is not even in the table of deprecated names any more).
The fix calls the replacement, `jax.tree.map`, which also maps over several trees at once.
"""
import jax
import jax.numpy as jnp

EXPECTED = "AttributeError"
ERROR_ID = "df5f2e290c21fc95"
TAGS = ["api", "pytrees", "deprecation"]
MESSAGE_CONTAINS = "has no attribute 'tree_multimap'"


def trigger():
    params = {"w": jnp.ones(3), "b": jnp.zeros(())}
    grads = {"w": jnp.full(3, 0.5), "b": jnp.ones(())}
    tree_multimap = getattr(jax, "tree_multimap")
    return tree_multimap(lambda p, g: p - 0.1 * g, params, grads)


def fixed():
    params = {"w": jnp.ones(3), "b": jnp.zeros(())}
    grads = {"w": jnp.full(3, 0.5), "b": jnp.ones(())}
    return jax.block_until_ready(jax.tree.map(lambda p, g: p - 0.1 * g, params, grads))
