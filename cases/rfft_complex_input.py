"""Called `jnp.fft.rfft` on a complex array.

rfft is the FFT of real input (it returns only the non-redundant half); complex input needs the full `fft`.
The fix uses `jnp.fft.fft`.
"""
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "1d6e78ac08a6595a"
TAGS = ["fft", "dtypes"]
MESSAGE_CONTAINS = "only real valued inputs supported for rfft"


def trigger():
    signal = jnp.exp(1j * jnp.linspace(0.0, 6.28, 8))
    return jnp.fft.rfft(signal)


def fixed():
    signal = jnp.exp(1j * jnp.linspace(0.0, 6.28, 8))
    return jnp.fft.fft(signal).block_until_ready()
