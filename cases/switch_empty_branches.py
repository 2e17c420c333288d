"""Called `lax.switch` with an empty list of branches.

switch needs at least one branch to choose from (the index is clamped into range).
The fix passes the branch functions.
"""
import jax.numpy as jnp
from jax import lax

EXPECTED = "ValueError"
ERROR_ID = "a7fdfac3934feb13"
TAGS = ["control_flow", "switch"]
MESSAGE_CONTAINS = "Empty branch sequence"


def trigger():
    branches = [f for f in (jnp.sin, jnp.cos) if f.__name__ == "tan"]
    return lax.switch(1, branches, 0.5)


def fixed():
    branches = [jnp.sin, jnp.cos]
    return lax.switch(1, branches, 0.5).block_until_ready()
