"""Built a JAX array from a list containing `None` (a missing value).

JAX arrays have no object dtype, so None has no numeric representation.
The fix encodes missing values explicitly (NaN here, or a separate mask).
"""
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "571db21c9f571a98"
TAGS = ["arrays", "dtypes"]
MESSAGE_CONTAINS = "None is not a valid value for jnp.array"


def trigger():
    readings = [1.5, None, 2.0]
    return jnp.array(readings)


def fixed():
    readings = [1.5, None, 2.0]
    return jnp.array([jnp.nan if r is None else r for r in readings]).block_until_ready()
