"""jax-errors: a verified, searchable catalogue of the errors JAX raises."""

__version__ = "0.1.0"
