"""Seeded a PRNG key with a float (a timestamp).

Seeds are integers; a float seed is refused rather than silently truncated.
The fix converts the seed to an int first.
"""
import jax

EXPECTED = "TypeError"
ERROR_ID = "2f15bf54e88ff06e"
TAGS = ["random", "prng", "keys"]
MESSAGE_CONTAINS = "PRNG key seed must be an integer"


def trigger():
    seed = 1712345678.25  # e.g. time.time()
    return jax.random.key(seed)


def fixed():
    seed = 1712345678.25
    return jax.random.key(int(seed) % 2**32)
