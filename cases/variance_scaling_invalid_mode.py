"""Gave `variance_scaling` a mode it does not know ("fan_average").

mode is one of "fan_in", "fan_out", "fan_avg" or "fan_geo_avg".
The fix spells it "fan_avg".
"""
import jax

EXPECTED = "ValueError"
ERROR_ID = "b0223a63b264bd79"
TAGS = ["nn", "initializers"]
MESSAGE_CONTAINS = "invalid mode for variance scaling initializer"


def trigger():
    init = jax.nn.initializers.variance_scaling(1.0, "fan_average", "uniform")
    return init(jax.random.key(0), (16, 8))


def fixed():
    init = jax.nn.initializers.variance_scaling(1.0, "fan_avg", "uniform")
    return init(jax.random.key(0), (16, 8)).block_until_ready()
