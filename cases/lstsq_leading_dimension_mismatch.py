"""Called `jnp.linalg.lstsq(a, b)` with a `b` whose length differs from `a`'s rows.

For a of shape (M, N), b must have M rows.
The fix gives b one entry per row of a.
"""
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "12ec871479c78a5e"
TAGS = ["linalg", "shapes"]
MESSAGE_CONTAINS = "Leading dimensions of input arrays must match"


def trigger():
    design = jnp.ones((5, 2))
    targets = jnp.ones(4)
    return jnp.linalg.lstsq(design, targets)


def fixed():
    design = jnp.stack([jnp.ones(5), jnp.arange(5.0)], axis=1)
    targets = jnp.arange(5.0)
    solution, residuals, rank, sv = jnp.linalg.lstsq(design, targets)
    return solution.block_until_ready()
