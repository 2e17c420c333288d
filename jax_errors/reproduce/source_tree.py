"""A crawled commit's jax package unpacked on disk, so cases can run against that commit's source.

The harness runs a case on the installed jaxlib with the commit's pure-Python `jax/` ahead of
the installed one on `PYTHONPATH`. That works while the commit still accepts the installed
jaxlib; when it does not, jax refuses to import, with a reason known before any worker starts
(`JaxTree.refusal`). Trees are cached by commit under `JAX_ERRORS_CACHE` (default `~/.cache/jax-errors`).
"""

from __future__ import annotations

import ast
import io
import re
import shutil
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

from jax_errors.cache import cache_folder
from jax_errors.crawler.installed import declared_version, read_version, version_strings
from jax_errors.crawler.repository import JaxRepository
from jax_errors.crawler.sources import PACKAGE_DIR
from jax_errors.exceptions import SourceError

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

    def refusal(self, jaxlib_version: str) -> str | None:
        """Why this jax would refuse to import over `jaxlib_version`, in its own words; None if it would
        not, or if that cannot be told without importing it.

        jax checks its jaxlib on import with `check_jaxlib_version` (in `jax/_src/lib/__init__.py`,
        the same since 0.4.1). The tree's own function is called here, on the versions its
        `version.py` declares: it compares version strings and nothing else. This spares starting a
        worker only to see it die.
        """
        try:
            check = _version_check(self.jax_dir / "_src" / "lib" / "__init__.py")
            declared = version_strings((self.jax_dir / "version.py").read_bytes(), str(self.jax_dir))
            jax_version = declared_version(declared, str(self.jax_dir))
            minimum = declared.get("_minimum_jaxlib_version")
        except (OSError, SyntaxError, ValueError, SourceError):
            return None
        if check is None or minimum is None:
            return None
        try:
            check(jax_version=jax_version, jaxlib_version=jaxlib_version, minimum_jaxlib_version=minimum)
        except RuntimeError as error:
            return f"RuntimeError: {error}"
        except Exception:  # noqa: BLE001 - a check of another shape: the worker's start will tell
            return None
        return None


def _version_check(path: Path):
    """The `check_jaxlib_version` function defined in the file at `path`, defined here on its own; None if absent."""
    module = ast.parse(path.read_bytes(), str(path))
    found = next((node for node in module.body
                  if isinstance(node, ast.FunctionDef) and node.name == "check_jaxlib_version"), None)
    if found is None or found.decorator_list:
        return None
    namespace = {"re": re}
    exec(compile(ast.Module([found], type_ignores=[]), str(path), "exec"), namespace)  # noqa: S102
    return namespace["check_jaxlib_version"]


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
