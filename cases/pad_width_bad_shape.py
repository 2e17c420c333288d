"""Gave `jnp.pad` a `pad_width` that is not one (before, after) pair per axis.

pad_width must broadcast to shape `(ndim, 2)`: a pair per axis, one pair for all axes, or one number.
The fix writes one `(before, after)` pair for each of the two axes.
"""
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "62f2c6d814ec069d"
TAGS = ["padding", "shapes", "numpy"]
MESSAGE_CONTAINS = "jnp.pad: pad_width with nd=2 has unsupported shape"


def trigger():
    image = jnp.ones((4, 4))
    return jnp.pad(image, [(1, 1), (2, 2), (0, 0)])


def fixed():
    image = jnp.ones((4, 4))
    return jnp.pad(image, [(1, 1), (2, 2)]).block_until_ready()
