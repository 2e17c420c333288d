"""A crawled commit's jax package unpacked on disk, so cases can run against that commit's source.

The harness runs a case on the installed jaxlib with the commit's pure-Python `jax/` ahead of
the installed one on `PYTHONPATH`. That works while the commit still accepts the installed
jaxlib; when it does not, jax refuses to import and the worker's start fails with jax's own
reason. Trees are cached by commit under `JAX_ERRORS_CACHE` (default `~/.cache/jax-errors`).
"""

from __future__ import annotations

import io
import shutil
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

from jax_errors.cache import cache_folder
from jax_errors.crawler.installed import read_version
from jax_errors.crawler.repository import JaxRepository
from jax_errors.crawler.sources import PACKAGE_DIR

COMPLETE = ".complete"


def cache_dir() -> Path:
    return cache_folder("trees")


@dataclass(frozen=True)
class JaxTree:
    """A folder holding one commit's `jax/` package."""

    commit: str
    root: Path  # goes on PYTHONPATH

    @property
    def jax_dir(self) -> Path:
        return self.root / PACKAGE_DIR

    @property
    def version(self) -> str:
        """The `_version` its `jax/version.py` declares."""
        return read_version(self.jax_dir)[0]


def export_tree(repository: JaxRepository, commit: str, *, cache: Path | None = None) -> JaxTree:
    """The `jax/` folder of `commit`, unpacked once into the cache and reused afterwards.

    Raises:
        UnknownRevisionError: `commit` is not in the repository.
    """
    sha = repository.commit(commit).hexsha
    cache = cache or cache_dir()
    target = cache / sha
    if (target / COMPLETE).exists():
        return JaxTree(sha, target)
    cache.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=cache, prefix=f".{sha[:12]}-"))
    try:
        archive = repository.archive(sha, PACKAGE_DIR)
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(staging, filter="data")
        (staging / COMPLETE).touch()
        if target.exists():  # a half-made tree from an interrupted export
            shutil.rmtree(target)
        staging.rename(target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return JaxTree(sha, target)
