"""Called `jnp.convolve` on 2-D arrays (an image and a kernel).

`jnp.convolve`, like NumPy's, is for 1-D sequences.
The fix uses `jax.scipy.signal.convolve2d` (or `convolve`) for N-D inputs.
"""
import jax
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "4c29c1e463f81f41"
TAGS = ["numpy", "convolution", "shapes"]
MESSAGE_CONTAINS = "convolve() only support 1-dimensional inputs"


def trigger():
    image = jnp.ones((8, 8))
    kernel = jnp.ones((3, 3)) / 9
    return jnp.convolve(image, kernel, mode="same")


def fixed():
    image = jnp.ones((8, 8))
    kernel = jnp.ones((3, 3)) / 9
    return jax.scipy.signal.convolve2d(image, kernel, mode="same").block_until_ready()
