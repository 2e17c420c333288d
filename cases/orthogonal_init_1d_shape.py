"""Used the orthogonal initializer for a 1-D parameter (a bias).

Orthogonality is a property of matrices; the initializer needs a shape of at least two dimensions.
The fix initialises the bias with zeros and keeps orthogonal init for the weight matrix.
"""
import jax
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "84fc3c587283229e"
TAGS = ["nn", "initializers", "shapes"]
MESSAGE_CONTAINS = "orthogonal initializer requires at least a 2D shape"


def trigger():
    init = jax.nn.initializers.orthogonal()
    key = jax.random.key(0)
    return init(key, (128, 64)), init(key, (64,))


def fixed():
    key = jax.random.key(0)
    w = jax.nn.initializers.orthogonal()(key, (128, 64))
    b = jax.nn.initializers.zeros(key, (64,))
    return jax.block_until_ready((w, b))
