"""Read the installed `jax` package as a snapshot pinned to the commit its wheel was built from."""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

from jax_errors.crawler.sources import PACKAGE_DIR, SourceFile, SourceSnapshot
from jax_errors.exceptions import JaxNotInstalledError, SourceError
from jax_errors.snapshots import release_tag


def installed_jax_dir() -> Path:
    """The folder of the installed `jax` package, found without importing it."""
    spec = importlib.util.find_spec(PACKAGE_DIR)
    if spec is None or not spec.submodule_search_locations:
        raise JaxNotInstalledError()
    return Path(next(iter(spec.submodule_search_locations)))


def read_version(package_dir: Path) -> tuple[str, str | None]:
    """The `_version` and `_git_hash` that `jax/version.py` records."""
    path = package_dir / "version.py"
    try:
        tree = ast.parse(path.read_bytes())
    except (OSError, SyntaxError) as error:
        raise SourceError(f"cannot read the jax version from {path}: {error}") from error
    values: dict[str, str] = {}
    for node in tree.body:
        target = node.targets[0] if isinstance(node, ast.Assign) else getattr(node, "target", None)
        value = getattr(node, "value", None)
        if isinstance(target, ast.Name) and isinstance(value, ast.Constant) and isinstance(value.value, str):
            values[target.id] = value.value
    if "_version" not in values:
        raise SourceError(f"{path} has no _version")
    git_hash = values.get("_git_hash") or None
    return values["_version"], git_hash


def installed_snapshot(package_dir: Path | None = None) -> SourceSnapshot:
    """The installed package's Python files, pinned to its version, tag and commit."""
    package_dir = package_dir or installed_jax_dir()
    version, git_hash = read_version(package_dir)
    root = package_dir.parent
    files = []
    for file in sorted(package_dir.rglob("*.py")):
        files.append(SourceFile.from_bytes(file.relative_to(root).as_posix(), file.read_bytes()))
    return SourceSnapshot(
        # A wheel built outside a git checkout has no hash; its version then stands in for it.
        commit=git_hash or f"installed-{version}",
        origin="installed",
        source=str(package_dir),
        files=files,
        tag=release_tag(version),
        version=version,
    )

