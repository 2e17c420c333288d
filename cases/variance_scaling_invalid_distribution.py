"""Gave `variance_scaling` a distribution name it does not know ("gaussian").

distribution is one of "truncated_normal", "normal" or "uniform".
The fix writes "normal".
"""
import jax

EXPECTED = "ValueError"
ERROR_ID = "546a464518355e6f"
TAGS = ["nn", "initializers"]
MESSAGE_CONTAINS = "invalid distribution for variance scaling initializer"


def trigger():
    init = jax.nn.initializers.variance_scaling(2.0, "fan_in", "gaussian")
    return init(jax.random.key(0), (16, 8))


def fixed():
    init = jax.nn.initializers.variance_scaling(2.0, "fan_in", "normal")
    return init(jax.random.key(0), (16, 8)).block_until_ready()
