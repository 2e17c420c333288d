"""Called `jax.tree.transpose` on a list of tuples where one tuple is shorter.

The tree must be exactly outer_treedef composed with inner_treedef.
The fix makes every inner tuple the same length.
"""
import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "ddfcee0f70b9032e"
TAGS = ["pytrees", "tree_util"]
MESSAGE_CONTAINS = "PyTreeDef([(*, *), (*,)])"


def trigger():
    rows = [(1.0, 2.0), (3.0,)]
    outer = jax.tree.structure([0, 0])
    inner = jax.tree.structure((0, 0))
    return jax.tree.transpose(outer, inner, rows)


def fixed():
    rows = [(1.0, 2.0), (3.0, 4.0)]
    outer = jax.tree.structure([0, 0])
    inner = jax.tree.structure((0, 0))
    return jax.tree.transpose(outer, inner, rows)
