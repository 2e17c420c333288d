"""Added two arrays whose shapes cannot broadcast together.

`jnp.add`/`lax.add` follow NumPy broadcasting; (3,) and (4,) have incompatible trailing dims.
The fix slices the operands to a common length (or reshapes so the shapes broadcast).
"""
import jax
import jax.numpy as jnp
from jax import lax

EXPECTED = "TypeError"
ERROR_ID = "a2eee940cfba9417"
TAGS = ["shapes", "lax", "broadcasting"]
MESSAGE_CONTAINS = "add got incompatible shapes for broadcasting: (3,), (4,)"


def trigger():
    return lax.add(jnp.ones(3), jnp.arange(4.0))


def fixed():
    return lax.add(jnp.ones(3), jnp.arange(4.0)[:3]).block_until_ready()
