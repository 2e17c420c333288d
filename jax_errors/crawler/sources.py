"""What a crawl reads: the Python files of one pinned state of JAX, from git or an installed package."""

from __future__ import annotations

import hashlib
import re
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
    """One `.py` file: its path in the repository and its git blob id; the bytes are read on demand.

    A symbolic link in git (`link`) is a blob too, whose bytes are the path it points to.
    """

    path: str
    blob_sha: str
    read: Callable[[], bytes]
    link: bool = False

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
    docs: Sequence[SourceFile] = ()  # the files under `docs/`: a git commit has them, a wheel or an sdist not

    @property
    def label(self) -> str:
        return snapshot_label(self.tag, self.version, self.commit)


def git_blob_sha(data: bytes) -> str:
    """The id git gives a blob with these bytes, so installed files share blobs with git ones."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def is_package_source(path: str) -> bool:
    """Whether a path is a `.py` file of the jax package that users' code runs: not its test code."""
    return path.startswith(PACKAGE_DIR + "/") and path.endswith(".py") and not is_test_code(path)


# Code only JAX's own tests run: folders of tests and examples (wheels leave most out), test
# utilities (`jax/_src/test_util.py` raises `unittest.SkipTest`), and test data. Users do call
# `jax.test_util.check_grads`, whose errors are in `public_test_util.py`.
_TEST_FOLDERS = frozenset({"tests", "examples", "internal_test_util"})
_TEST_FILE = re.compile(r"(?:test_\w*|\w*_test|\w*_test_util)\.py")
_USER_FACING_TEST_FILES = frozenset({"public_test_util.py"})


def is_test_code(path: str) -> bool:
    *folders, name = path.split("/")
    if name in _USER_FACING_TEST_FILES:
        return False
    return bool(_TEST_FOLDERS.intersection(folders)) or _TEST_FILE.fullmatch(name) is not None
