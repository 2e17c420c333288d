"""Used a fan-based initializer (`glorot_normal`) for a 1-D parameter.

Fan-in and fan-out are read from the input and output axes, which a vector does not both have.
The fix initialises the bias with zeros and keeps Glorot for the weight matrix.
"""
import jax

EXPECTED = "ValueError"
ERROR_ID = "e7fa89577d8e763e"
TAGS = ["nn", "initializers", "shapes"]
MESSAGE_CONTAINS = "Can't compute input and output sizes of a 1-dimensional weights tensor"


def trigger():
    init = jax.nn.initializers.glorot_normal()
    key = jax.random.key(0)
    return init(key, (32, 16)), init(key, (16,))


def fixed():
    key = jax.random.key(0)
    w = jax.nn.initializers.glorot_normal()(key, (32, 16))
    b = jax.nn.initializers.zeros(key, (16,))
    return jax.block_until_ready((w, b))
