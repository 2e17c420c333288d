"""What a crawl reads: the Python files of one pinned state of JAX, from git or an installed package."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

RELEASE_TAG_PREFIX = "jax-v"
PACKAGE_DIR = "jax"


@dataclass(frozen=True)
class SourceFile:
    """One `.py` file: its path in the repository and its git blob id; the bytes are read on demand."""

    path: str
    blob_sha: str
    read: Callable[[], bytes]


@dataclass(frozen=True)
class SourceSnapshot:
    """The files of one pinned JAX state, plus what pins it."""

    commit: str
    origin: str  # "git" or "installed"
    source: str  # repository path, or the installed package's folder
    files: Sequence[SourceFile]
    tag: str | None = None
    version: str | None = None
    committed_at: datetime | None = None

    @property
    def label(self) -> str:
        return self.tag or self.version or self.commit[:10]


def git_blob_sha(data: bytes) -> str:
    """The id git gives a blob with these bytes, so installed files share blobs with git ones."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def is_package_source(path: str) -> bool:
    return path.startswith(PACKAGE_DIR + "/") and path.endswith(".py")


_COMMIT = re.compile(r"[0-9a-f]{40}")


def is_commit(ref: str) -> bool:
    """Whether `ref` is a full git commit id (an installed wheel without one gets a made-up name)."""
    return bool(_COMMIT.fullmatch(ref))


def version_key(version: str) -> tuple:
    """Sort key of a release version or `jax-v` tag: 0.4.10 after 0.4.9, 0.5.0rc1 before 0.5.0.

    A local suffix (`0.11.0+abc`) and anything unnumbered after the numbers are ignored.
    """
    text = version.removeprefix(RELEASE_TAG_PREFIX).split("+", 1)[0]
    numbers = re.match(r"\d+(?:\.\d+)*", text)
    main = tuple(int(p) for p in numbers.group().split(".")) if numbers else ()
    candidate = re.search(r"rc(\d*)", text)
    return (main, 0, int(candidate.group(1) or 0)) if candidate else (main, 1, 0)


def release_tag(version: str) -> str:
    return f"{RELEASE_TAG_PREFIX}{version}"
