"""Names of pinned JAX states: release tags and versions, commit ids, and the label a snapshot goes by."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Callable
from datetime import datetime
from itertools import accumulate
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
    release (in that order) dated no later than it, commits among themselves by date (undated ones last).

    A patch to an older line made after a newer line's release (0.8.3 after 0.9.0) comes before that
    release, and a commit made between them after 0.9.0, the last release of its day or earlier.
    """
    ordered = sorted((i for i in items if release(i)), key=lambda i: version_key(release(i) or ""))
    dated = sorted((day, position) for position, item in enumerate(ordered) if (day := date(item)) is not None)
    days = [day for day, _ in dated]
    # The furthest release (by position) dated on or before each of `days`.
    furthest = list(accumulate((position for _, position in dated), max))
    following: dict[int, list[T]] = defaultdict(list)  # a release's position (-1: before the first) -> commits
    for other in sorted((i for i in items if not release(i)), key=lambda i: (date(i) is None, date(i) or datetime.min)):
        when = date(other)
        if when is None:
            following[len(ordered)].append(other)
            continue
        earlier = bisect_right(days, when)
        following[furthest[earlier - 1] if earlier else -1].append(other)
    result = list(following[-1])
    for position, item in enumerate(ordered):
        result.append(item)
        result.extend(following[position])
    return result + following[len(ordered)]
