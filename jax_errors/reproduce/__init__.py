"""Reproduction: run reproduction cases and JAX's own tests on a CPU device mesh, and attribute each error to its raise site."""
