"""Called `jnp.linalg.solve` with a right-hand side whose length differs from the matrix size.

solve(a, b) is vectorized with signature `(m,m),(m)->(m)`: b's last axis must be a's size.
The fix passes a right-hand side of matching length.
"""
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "b24ef182e8a54326"
TAGS = ["linalg", "shapes", "vectorize"]
MESSAGE_CONTAINS = "inconsistent size for core dimension"


def trigger():
    a = 2.0 * jnp.eye(3)
    b = jnp.ones(4)
    return jnp.linalg.solve(a, b)


def fixed():
    a = 2.0 * jnp.eye(3)
    b = jnp.ones(3)
    return jnp.linalg.solve(a, b).block_until_ready()
