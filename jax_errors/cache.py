"""The folder jax-errors keeps downloads and made things in: `$JAX_ERRORS_CACHE`, default `~/.cache/jax-errors`."""

from __future__ import annotations

import os
from pathlib import Path

CACHE_ENV = "JAX_ERRORS_CACHE"


def cache_folder(name: str) -> Path:
    """One kind of cached thing: `trees` (commits' jax/ folders), `envs` (release environments), `wheels`,
    `validators` and `templates` (what a build compiles)."""
    return Path(os.environ.get(CACHE_ENV, Path.home() / ".cache" / "jax-errors")) / name
