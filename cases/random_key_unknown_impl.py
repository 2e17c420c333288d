"""Asked for a PRNG implementation by a name JAX does not know.

`impl` must name a registered implementation such as "threefry2x32", "rbg" or "unsafe_rbg".
The fix spells the name as registered.
"""
import jax

EXPECTED = "ValueError"
ERROR_ID = "672ddf8f3b6965ab"
TAGS = ["random", "prng"]
MESSAGE_CONTAINS = "unrecognized PRNG implementation"


def trigger():
    return jax.random.key(0, impl="threefry")


def fixed():
    return jax.random.key(0, impl="threefry2x32")
