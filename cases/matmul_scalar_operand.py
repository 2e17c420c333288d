"""Used `jnp.matmul` (`@`) with a scalar operand.

matmul needs arrays of at least one dimension; scaling by a number is elementwise multiplication.
The fix multiplies with `*`.
"""
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "a20d4904d25e2189"
TAGS = ["matmul", "shapes"]
MESSAGE_CONTAINS = "matmul input operand 1 must have ndim at least 1, but it has ndim 0"


def trigger():
    w = jnp.ones((3, 3))
    return jnp.matmul(w, 0.5)


def fixed():
    w = jnp.ones((3, 3))
    return (w * 0.5).block_until_ready()
