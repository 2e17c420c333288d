"""Called an ahead-of-time compiled function with an argument of another shape.

`jit(f).lower(x).compile()` is specialised to the shapes and dtypes it was lowered with; it does not retrace.
The fix calls the jitted function (which compiles per shape) or lowers again for the new shape.
"""
import jax
import jax.numpy as jnp

EXPECTED = "TypeError"
ERROR_ID = "4cbc840c363e6074"
TAGS = ["jit", "aot", "shapes"]
MESSAGE_CONTAINS = "Argument types differ from the types for which this computation was compiled"


def trigger():
    f = jax.jit(lambda x: x * 2)
    compiled = f.lower(jnp.ones(3)).compile()
    return compiled(jnp.ones(4))


def fixed():
    f = jax.jit(lambda x: x * 2)
    compiled = f.lower(jnp.ones(4)).compile()
    return compiled(jnp.ones(4)).block_until_ready()
