"""What a crawl reads: the Python files of one pinned state of JAX, from git or an installed package."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from jax_errors.snapshots import snapshot_label

PACKAGE_DIR = "jax"
# Where a snapshot's files were read: a git commit, the installed package, a release's wheel or
# source archive from the package index, or a plain folder.
ORIGINS = ("git", "installed", "wheel", "sdist", "folder")


@dataclass(frozen=True)
class SourceFile:
    """One `.py` file: its path in the repository and its git blob id; the bytes are read on demand."""

    path: str
    blob_sha: str
    read: Callable[[], bytes]

    @classmethod
    def from_bytes(cls, path: str, data: bytes) -> SourceFile:
        """A file already read (from an installed package or a folder), keyed the way git keys it."""
        return cls(path, git_blob_sha(data), lambda: data)


@dataclass(frozen=True)
class SourceSnapshot:
    """The files of one pinned JAX state, plus what pins it."""

    commit: str
    origin: str  # one of ORIGINS
    source: str  # repository path, or the installed package's folder
    files: Sequence[SourceFile]
    tag: str | None = None
    version: str | None = None
    committed_at: datetime | None = None

    @property
    def label(self) -> str:
        return snapshot_label(self.tag, self.version, self.commit)


def git_blob_sha(data: bytes) -> str:
    """The id git gives a blob with these bytes, so installed files share blobs with git ones."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def is_package_source(path: str) -> bool:
    return path.startswith(PACKAGE_DIR + "/") and path.endswith(".py")
