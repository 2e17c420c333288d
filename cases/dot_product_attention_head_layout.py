"""Called `jax.nn.dot_product_attention` with a query missing the heads axis.

All of query, key and value are laid out as (batch, seq_len, num_heads, head_dim).
The fix adds the heads axis to the query.
"""
import jax
import jax.numpy as jnp

EXPECTED = "ValueError"
ERROR_ID = "efd1934fa6da597e"
TAGS = ["nn", "attention", "shapes"]
MESSAGE_CONTAINS = "query shape should be"


def trigger():
    q = jnp.ones((2, 4, 8))  # batch, seq, head_dim
    k = v = jnp.ones((2, 4, 1, 8))  # batch, seq, heads, head_dim
    return jax.nn.dot_product_attention(q, k, v)


def fixed():
    q = jnp.ones((2, 4, 1, 8))
    k = v = jnp.ones((2, 4, 1, 8))
    return jax.nn.dot_product_attention(q, k, v).block_until_ready()
