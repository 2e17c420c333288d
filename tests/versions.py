"""Where the seed error and a few others stand in each jax release this project may install.

Tests follow the installed jax (`jax.__version__`): the pinned one by default, 0.10.2 on an older set-up.
"""

import jax

SEED_ID = "252d5ba9437acc7a"
SEED_PATH = "jax/_src/lax/parallel.py"
# release: (first line, last line of the raise, the release's commit)
SEED_SITES = {
    "0.10.2": (2491, 2492, "990e6a0b84138346e6a38785412f36356e0e5dc3"),
    "0.12.0.1": (2737, 2738, "dc4af684446e65ee98eee8090e1ff6f8211473fb"),
    "0.12.1": (2895, 2896, "f89b64d60e936e8612f15d8d5dd0c0003d5007fb"),
}


# What `jax.grad` of a vector-valued function says; 0.12 adds a hint through a bound `.format` inside `+`.
GRAD_MESSAGES = {
    "0.10.2": "Gradient only defined for scalar-output functions. Output had shape: (3,).",
    "0.12.0.1": "Gradient only defined for scalar-output functions. Output had shape: (3,). To get the gradient, "
                "reduce the output to a scalar with output.sum(), or use jax.jacobian to differentiate a function "
                "with a non-scalar output.",
}
GRAD_MESSAGES["0.12.1"] = GRAD_MESSAGES["0.12.0.1"]


def seed_site() -> tuple[int, int, str]:
    """The installed release's seed raise: first line, last line, commit."""
    return SEED_SITES[jax.__version__]


def seed_line() -> int:
    return seed_site()[0]
