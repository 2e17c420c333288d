"""Where things live: GitHub permalinks and the site's own URLs."""

from __future__ import annotations

import hashlib
import re

GITHUB_REPO = "https://github.com/jax-ml/jax"
PYPI_PROJECT = "https://pypi.org/project/jax/"
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def github_url(ref: str, path: str, line: int | None = None, end_line: int | None = None) -> str:
    """A permalink to `path` at `ref` (a commit or a `jax-vX.Y.Z` tag), anchored at its lines."""
    url = f"{GITHUB_REPO}/blob/{ref}/{path}"
    if line is None:
        return url
    if end_line is not None and end_line > line:
        return f"{url}#L{line}-L{end_line}"
    return f"{url}#L{line}"


def slug(name: str) -> str:
    """A file name for a group name; names that had to change get a hash, so slugs never collide."""
    safe = _UNSAFE.sub("-", name).strip("-.") or "unnamed"
    if safe == name:
        return safe
    return f"{safe[:60]}-{hashlib.sha256(name.encode()).hexdigest()[:8]}"


def card_path(error_id: str) -> str:
    return f"errors/{error_id}.html"


def card_json_path(error_id: str) -> str:
    return f"api/errors/{error_id}.json"


def relative_root(page: str) -> str:
    """The prefix leading from `page` (a site-relative path) back to the site root."""
    return "../" * page.count("/")


def diff_path(old_label: str, new_label: str) -> str:
    """The page of the changes from one snapshot to the next, by their labels."""
    return f"diffs/{slug(old_label + '..' + new_label)}.html"
