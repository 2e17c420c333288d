"""Took `jax.grad` of a function that returns a vector instead of a scalar.

`grad` is only defined for scalar outputs. For a loss, reduce the output (e.g. `.sum()`);
for the full derivative matrix use `jax.jacrev`/`jax.jacfwd`.
"""
import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "c353480babf790e7"
FORMER_ERROR_IDS = ["78b2bd2a5df2be48"]  # before jax 0.12
TAGS = ["grad", "autodiff"]
MESSAGE_CONTAINS = "Gradient only defined for scalar-output functions. Output had shape: (3,)"


def trigger():
    return jax.grad(lambda x: jnp.sin(x) * x)(jnp.arange(3.0))


def fixed():
    return jax.grad(lambda x: (jnp.sin(x) * x).sum())(jnp.arange(3.0)).block_until_ready()
