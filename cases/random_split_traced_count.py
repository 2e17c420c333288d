"""Passed a traced number of keys to `jax.random.split` inside `jit`.

The number of keys fixes the output shape, which must be known when tracing.
The fix makes the count static (`static_argnums`).
"""
import jax

EXPECTED = "TypeError"
ERROR_ID = "6f8cb45cf4ddc646"
TAGS = ["random", "jit", "static_args"]
MESSAGE_CONTAINS = "parameters to jaxpr equations must have __hash__ and __eq__ methods"


def trigger():
    split_n = jax.jit(lambda key, n: jax.random.split(key, n))
    return split_n(jax.random.key(0), 4)


def fixed():
    split_n = jax.jit(lambda key, n: jax.random.split(key, n), static_argnums=1)
    return split_n(jax.random.key(0), 4)
