"""Names of pinned JAX states: release tags and versions, commit ids, and the label a snapshot goes by."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from typing import TypeVar

RELEASE_TAG_PREFIX = "jax-v"
T = TypeVar("T")
_COMMIT = re.compile(r"[0-9a-f]{40}")


def snapshot_label(tag: str | None, version: str | None, commit: str) -> str:
    """What a snapshot is called: its release tag, else its version, else its short commit."""
    return tag or version or commit[:10]


def short_commit(commit: str) -> str:
    """A commit's first 10 digits; a made-up name (a package that records no commit) in full."""
    return commit[:10] if is_commit(commit) else commit


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


def is_final_release_tag(tag: str) -> bool:
    """Whether a tag names a release users install (`jax-v0.4.30`), not a candidate (`jax-v0.4.30-rc`)."""
    return re.fullmatch(re.escape(RELEASE_TAG_PREFIX) + r"\d+(?:\.\d+)*", tag) is not None


def release_of(version: str | None, tag: str | None) -> str | None:
    """The release a snapshot is, from its version or its `jax-v*` tag."""
    if version:
        return version
    return tag.removeprefix(RELEASE_TAG_PREFIX) if tag and tag.startswith(RELEASE_TAG_PREFIX) else None


def in_release_order(items: list[T], release: Callable[[T], str | None], date: Callable[[T], datetime | None]) -> list[T]:
    """Releases by version (0.4.38 after 0.4.9, whatever their dates); each other commit after the last
    release dated before it (undated ones last)."""
    ordered = sorted((i for i in items if release(i)), key=lambda i: version_key(release(i) or ""))
    for other in sorted((i for i in items if not release(i)), key=lambda i: (date(i) is None, date(i) or datetime.min)):
        when = date(other)
        before = [n for n, i in enumerate(ordered) if when is not None and (d := date(i)) is not None and d <= when]
        ordered.insert(before[-1] + 1 if before else (0 if when is not None else len(ordered)), other)
    return ordered
