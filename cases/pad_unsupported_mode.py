"""Called `jnp.pad` with a padding mode name that does not exist ("replicate").

jnp.pad supports NumPy's modes: constant, edge, linear_ramp, maximum, mean, median,
minimum, reflect, symmetric, wrap, empty. PyTorch's "replicate" is NumPy's "edge".
"""
import jax
import jax.numpy as jnp

EXPECTED = "NotImplementedError"
ERROR_ID = "fa0530d37f92d172"
TAGS = ["numpy", "padding"]
MESSAGE_CONTAINS = "Unimplemented padding mode 'replicate' for np.pad."


def trigger():
    return jnp.pad(jnp.arange(4.0), 2, mode="replicate")


def fixed():
    return jnp.pad(jnp.arange(4.0), 2, mode="edge").block_until_ready()
