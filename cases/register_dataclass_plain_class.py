"""Called `jax.tree_util.register_dataclass` on a plain class without listing its fields.

For a dataclass the fields are read from it; for any other class `data_fields` and `meta_fields` must be given.
The fix makes the class a dataclass (or passes both field lists).
"""
import dataclasses

import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "ad5c10d3572861fa"
TAGS = ["pytrees", "dataclasses"]
MESSAGE_CONTAINS = "register_dataclass: data_fields and meta_fields are required when nodetype is not a dataclass"


def trigger():
    class Params:
        def __init__(self, w, b):
            self.w, self.b = w, b

    jax.tree_util.register_dataclass(Params)
    return jax.tree.leaves(Params(jnp.ones(2), jnp.zeros(())))


def fixed():
    @dataclasses.dataclass
    class Params:
        w: jax.Array
        b: jax.Array

    jax.tree_util.register_dataclass(Params)
    return jax.tree.leaves(Params(jnp.ones(2), jnp.zeros(())))
