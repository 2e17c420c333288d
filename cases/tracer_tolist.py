"""Called `.tolist()` on a traced array inside a jitted function.

tolist builds Python numbers, which need concrete values that do not exist while tracing.
The fix returns the array and calls `.tolist()` on the result outside `jit`.
"""
import jax
import jax.numpy as jnp

EXPECTED = "jax.errors.ConcretizationTypeError"
ERROR_ID = "e144e060b4bb71af"
TAGS = ["jit", "tracing", "concretization"]
MESSAGE_CONTAINS = "The tolist() method was called on traced array"


def trigger():
    @jax.jit
    def top_scores(x):
        return sorted(x.tolist())[-2:]

    return top_scores(jnp.array([0.3, 0.9, 0.1]))


def fixed():
    @jax.jit
    def top_scores(x):
        return jnp.sort(x)[-2:]

    return top_scores(jnp.array([0.3, 0.9, 0.1])).tolist()
