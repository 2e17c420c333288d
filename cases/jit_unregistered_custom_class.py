"""Passed an instance of a plain Python class (not a registered pytree) into jit.

jit only knows how to flatten registered pytrees; an unknown object is treated as a leaf
and is not an array. The fix registers the class with `register_pytree_node_class`.
"""
import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "61e117e55e48e65a"
TAGS = ["pytrees", "custom_pytree", "jit"]
MESSAGE_CONTAINS = "This typically means that a jit-wrapped function was called with a non-array argument"


def _point_class():
    class Point:
        def __init__(self, x, y):
            self.x, self.y = x, y

        def tree_flatten(self):
            return (self.x, self.y), None

        @classmethod
        def tree_unflatten(cls, aux, children):
            return cls(*children)
    return Point


def trigger():
    Point = _point_class()  # has tree_flatten, but was never registered
    return jax.jit(lambda p: p.x * p.y)(Point(jnp.ones(2), jnp.ones(2)))


def fixed():
    Point = jax.tree_util.register_pytree_node_class(_point_class())
    return jax.jit(lambda p: p.x * p.y)(Point(jnp.ones(2), jnp.ones(2))).block_until_ready()
