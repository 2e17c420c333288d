"""Stable error ids: the same error keeps its id when lines move or its file is renamed.

The rule (also in the README):

1. A raise site's *key* is its exception class (or, when unresolved, the raised expression), its
   enclosing qualified name, and its message skeleton: the template with every placeholder
   emptied to `{}` and whitespace folded. Line numbers and placeholder expressions are left out,
   so moving code or renaming a local variable keeps the id.
2. When one file has several sites with the same key, the second and later (in line order) also
   mix in their ordinal `#1`, `#2`, ...
3. The *base id* is the first 16 hex digits of sha256 over `v1`, the key and the ordinal,
   joined by U+001F. A file rename keeps it.
4. If two files of one snapshot yield the same base id (e.g. twin lowering rules of two Pallas
   backends), each of those sites' error id also mixes in its path; otherwise the error id is
   the base id. Bare re-raises have no id: they re-raise an error catalogued elsewhere.
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence

from jax_errors.crawler.raise_sites import RaiseSite

ID_SCHEME = "v1"
ID_LENGTH = 16
_SEP = "\x1f"


def _digest(*fields: str) -> str:
    return hashlib.sha256(_SEP.join((ID_SCHEME, *fields)).encode()).hexdigest()[:ID_LENGTH]


def site_key(site: RaiseSite) -> tuple[str, str, str]:
    return (site.exc_class or site.exc_expr, site.qualname, site.template.skeleton)


def base_ids(sites: Sequence[RaiseSite]) -> list[str | None]:
    """The base id of each site of one file, given in line order."""
    seen: Counter[tuple[str, str, str]] = Counter()
    ids: list[str | None] = []
    for site in sites:
        if site.kind != "raise":
            ids.append(None)
            continue
        key = site_key(site)
        ordinal = seen[key]
        seen[key] += 1
        ids.append(_digest(*key) if ordinal == 0 else _digest(*key, f"#{ordinal}"))
    return ids


def error_ids(occurrences: Iterable[tuple[str, str | None]]) -> list[str | None]:
    """Snapshot-wide ids for (path, base id) pairs: base ids shared across files mix in the path."""
    pairs = list(occurrences)
    paths_by_id: dict[str, set[str]] = defaultdict(set)
    for path, base in pairs:
        if base is not None:
            paths_by_id[base].add(path)
    return [None if base is None else error_id(base, path, shared=len(paths_by_id[base]) > 1) for path, base in pairs]


def error_id(base: str, path: str, *, shared: bool) -> str:
    """A raise's snapshot-wide id: its base id, with its path mixed in when another file has that base id too."""
    return _digest(base, path) if shared else base
