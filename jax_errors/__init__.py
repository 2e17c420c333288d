"""jax-errors: a verified, searchable catalogue of the errors JAX raises.

    import jax_errors
    jax_errors.explain(error)   # the card(s) for an exception, a message or an error id
    jax_errors.releases_say(error)  # when the jax module or name an ImportError says is missing came or went
    jax_errors.install()        # the card under every JAX traceback (and in IPython, when running there)
    %load_ext jax_errors        # the same in IPython and Jupyter

These are imported at first use: `import jax_errors` loads nothing else (no SQLAlchemy, jax, rich
or IPython), and `install()` reads nothing until the first exception.
"""

__version__ = "0.1.0"

_LAZY = {
    "explain": "jax_errors.explainer.api",
    "releases_say": "jax_errors.explainer.api",
    "install": "jax_errors.explainer.hook",
    "uninstall": "jax_errors.explainer.hook",
    "load_ipython_extension": "jax_errors.explainer.ipython",
    "unload_ipython_extension": "jax_errors.explainer.ipython",
}
__all__ = ["__version__", *_LAZY]


def __getattr__(name: str):
    if name not in _LAZY:
        raise AttributeError(f"module 'jax_errors' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(_LAZY[name]), name)


def __dir__() -> list[str]:
    return sorted(__all__)
