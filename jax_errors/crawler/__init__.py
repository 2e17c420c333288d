"""Crawl JAX's source, pinned to a commit or an installed package: every raise site, and the asserts of JAX's tests."""
