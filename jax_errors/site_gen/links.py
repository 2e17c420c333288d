"""Where things live: GitHub permalinks and the site's own URLs."""

from __future__ import annotations

import hashlib
import re
import urllib.parse

from jax_errors.template import Template

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


def commit_url(sha: str) -> str:
    """The GitHub page of one JAX commit."""
    return f"{GITHUB_REPO}/commit/{sha}"


JAX_ERRORS_PAGE = "https://docs.jax.dev/en/latest/errors.html"
# How many words of a message's longest literal run a search of JAX's issues quotes.
SEARCH_WORDS = 8


def errors_page_url(exc_class: str) -> str | None:
    """JAX's documentation of a `jax.errors` class (`jax._src.errors.ConcretizationTypeError`), None for others."""
    module, _, name = exc_class.rpartition(".")
    return f"{JAX_ERRORS_PAGE}#jax.errors.{name}" if module in ("jax.errors", "jax._src.errors") else None


def issue_search_url(template: Template) -> str:
    """A search of JAX's GitHub issues for the longest run of literal words in a message template."""
    runs = [" ".join(part.text.split()) for part in template.parts if part.kind == "lit"]
    words = max(runs, key=len, default="").strip(" .,:;!?'\"`()[]{}").split()[:SEARCH_WORDS]
    query = f'is:issue "{" ".join(words)}"' if words else "is:issue"
    return f"{GITHUB_REPO}/issues?q={urllib.parse.quote(query)}"


def report_link(template: str | None, error_id: str, title: str) -> str | None:
    """Where to report a problem with a card: `--report-url`'s template, its `{id}` and `{title}` filled in.

    Raises:
        KeyError, ValueError, IndexError: the template names other fields or is not a format string.
    """
    if not template:
        return None
    return template.format(id=urllib.parse.quote(error_id), title=urllib.parse.quote(title))


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
