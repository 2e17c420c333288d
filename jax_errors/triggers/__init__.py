"""Triggers mined from JAX's own tests: which test makes which raise site raise."""
