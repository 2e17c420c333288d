"""Read a jax package (installed, or a release's wheel) as a snapshot pinned to the commit it was built from."""

from __future__ import annotations

import ast
import importlib.util
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path

from jax_errors.crawler.sources import PACKAGE_DIR, SourceFile, SourceSnapshot, is_package_source
from jax_errors.exceptions import JaxNotInstalledError, SourceError
from jax_errors.snapshots import release_tag

VERSION_FILE = f"{PACKAGE_DIR}/version.py"


def installed_jax_dir() -> Path:
    """The folder of the installed `jax` package, found without importing it."""
    spec = importlib.util.find_spec(PACKAGE_DIR)
    if spec is None or not spec.submodule_search_locations:
        raise JaxNotInstalledError()
    return Path(next(iter(spec.submodule_search_locations)))


def read_version(package_dir: Path) -> tuple[str, str | None]:
    """The `_version` and `_git_hash` that the package's `jax/version.py` records."""
    path = package_dir / "version.py"
    try:
        source = path.read_bytes()
    except OSError as error:
        raise SourceError(f"cannot read the jax version from {path}: {error}") from error
    return parse_version(source, str(path))


def parse_version(source: bytes, where: str) -> tuple[str, str | None]:
    """The `_version` and `_git_hash` assigned in the text of a `jax/version.py`."""
    values = version_strings(source, where)
    return declared_version(values, where), values.get("_git_hash") or None


def declared_version(values: dict[str, str], where: str) -> str:
    """The jax version among a `jax/version.py`'s strings (`version_strings`)."""
    version = values.get("_version") or values.get("__version__")  # releases before 0.4.2x name it __version__
    if version is None:
        raise SourceError(f"{where} has no _version")
    return version


def version_strings(source: bytes, where: str) -> dict[str, str]:
    """The strings a `jax/version.py` assigns at its top level (`_version`, `_minimum_jaxlib_version`, ...)."""
    try:
        tree = ast.parse(source)
    except SyntaxError as error:
        raise SourceError(f"cannot read the jax version from {where}: {error}") from error
    values: dict[str, str] = {}
    for node in tree.body:
        target = node.targets[0] if isinstance(node, ast.Assign) else getattr(node, "target", None)
        value = getattr(node, "value", None)
        if isinstance(target, ast.Name) and isinstance(value, ast.Constant) and isinstance(value.value, str):
            values[target.id] = value.value
    return values


def package_snapshot(files: Iterable[tuple[str, bytes]], *, origin: str, source: str,
                     committed_at: datetime | None = None, known_version: str | None = None) -> SourceSnapshot:
    """A built jax package's `.py` files (paths from the folder holding `jax/`), pinned by its `version.py`.

    `known_version` stands in for a `version.py` the package lacks (the archives of jax 0.0 to 0.1.19, whose
    version the package index names).
    """
    read = [SourceFile.from_bytes(path, data) for path, data in sorted(files)]
    version_file = next((f for f in read if f.path == VERSION_FILE), None)
    if version_file is not None:
        version, git_hash = parse_version(version_file.read(), f"{source}: {VERSION_FILE}")
    elif known_version is not None:
        version, git_hash = known_version, None
    else:
        raise SourceError(f"{source} has no {VERSION_FILE}")
    return SourceSnapshot(
        # A package built outside a git checkout has no hash; its version then stands in for it.
        commit=git_hash or f"release-{version}",
        origin=origin,
        source=source,
        files=read,
        tag=release_tag(version),
        version=version,
        committed_at=committed_at,
    )


def installed_snapshot(package_dir: Path | None = None) -> SourceSnapshot:
    """The installed package's Python files, pinned to its version, tag and commit."""
    package_dir = package_dir or installed_jax_dir()
    root = package_dir.parent
    files = ((path, file.read_bytes()) for file in package_dir.rglob("*.py")
             if is_package_source(path := file.relative_to(root).as_posix()))
    return package_snapshot(files, origin="installed", source=str(package_dir))
