"""Registered a dataclass as a pytree but forgot one field in data_fields/meta_fields.

`register_dataclass` needs every init field listed as data or meta (or in drop_fields).
The fix lists the static `name` field in `meta_fields`.
"""
import dataclasses

import jax
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "55fe56fba8baf634"
FORMER_ERROR_IDS = ["472175e4e90fa503"]  # before jax 0.12
TAGS = ["pytrees", "custom_pytree", "tree_util"]
MESSAGE_CONTAINS = "data_fields and meta_fields must include all dataclass fields"


def _make_cls():
    @dataclasses.dataclass
    class Layer:
        w: jax.Array
        b: jax.Array
        name: str
    return Layer


def trigger():
    return jax.tree_util.register_dataclass(_make_cls(), data_fields=["w", "b"], meta_fields=[])


def fixed():
    Layer = jax.tree_util.register_dataclass(
        _make_cls(), data_fields=["w", "b"], meta_fields=["name"])
    layer = Layer(jnp.ones(2), jnp.zeros(2), "dense")
    return jax.jit(lambda l: l.w + l.b)(layer).block_until_ready()
