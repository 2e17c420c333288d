"""Extract every raise site from JAX's source, pinned to a commit or an installed package."""
