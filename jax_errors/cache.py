"""The folder jax-errors keeps downloads and made things in: `$JAX_ERRORS_CACHE`, default `~/.cache/jax-errors`."""

from __future__ import annotations

import os
from pathlib import Path

CACHE_ENV = "JAX_ERRORS_CACHE"


def cache_folder(name: str) -> Path:
    """One kind of cached thing: `trees` (commits' jax/ folders), `envs` (release environments), `wheels`,
    `validators` and `templates` (what a build compiles), `lookup` (the browser's regexes of templates)."""
    return Path(os.environ.get(CACHE_ENV, Path.home() / ".cache" / "jax-errors")) / name


def keep(target: Path, data: bytes) -> None:
    """Write `data` to `target` atomically: a reader sees the old file or the new one. A folder that
    cannot be written keeps nothing (what is kept is made again next time)."""
    import tempfile  # imported here: `jax-errors lookup` reads what is kept far more often than it writes it

    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        file = tempfile.NamedTemporaryFile(dir=target.parent, prefix=f".{target.name}-", delete=False)
    except OSError:
        return
    try:
        with file:
            file.write(data)
        os.replace(file.name, target)
    except OSError:
        Path(file.name).unlink(missing_ok=True)
