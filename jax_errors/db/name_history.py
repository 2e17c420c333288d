"""Which crawled releases had each public module of jax, and each name of one.

A user upgrading jax meets `module 'jax' has no attribute 'tree_multimap'`, `No module named
'jax.experimental.maps'` or `cannot import name 'PRNGKeyArray' from 'jax.random'`. The interpreter words
these (or a module's `__getattr__` words them as it does), so no card tells what happened; the crawl does:
a public module exists where its file does (`FileSpan`), and binds the names its call summary lists
(`calls.summarize_calls`: its top-level bindings, the modules of its package, its deprecation table).

Only what the sources show for certain is told. Where a module star-imports another, or has a
`__getattr__` of its own (not one reading a deprecation table), its names are not all known: no
release is said to lack a name of it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from jax_errors.crawler.entry_points import stored_summaries
from jax_errors.crawler.imports import module_name
from jax_errors.crawler.sources import PACKAGE_DIR
from jax_errors.db.history import ordered_snapshots
from jax_errors.db.models import FileSpan


@dataclass(frozen=True)
class Span:
    """The releases a module or a name was in, as positions in `NameHistory.releases`: from `first` to `last`. Either is
    None where the sources cannot tell that a release before (after) it lacked it. `warned` is the first release whose
    deprecation table warned on reading the name, and `warning` what the newest such table said."""

    first: int | None
    last: int | None
    warned: int | None = None
    warning: str | None = None

    def as_json(self) -> list[Any]:
        return [self.first, self.last, self.warned, self.warning]

    @classmethod
    def from_json(cls, data: list[Any]) -> Span:
        return cls(*data)


@dataclass(frozen=True)
class NameHistory:
    """The releases crawled, oldest first (labels), and the span of each module and name (`module.name`) that some
    crawled release lacked."""

    releases: tuple[str, ...] = ()
    modules: Mapping[str, Span] = None  # type: ignore[assignment]
    names: Mapping[str, Span] = None  # type: ignore[assignment]

    def __post_init__(self) -> None:
        object.__setattr__(self, "modules", dict(self.modules or {}))
        object.__setattr__(self, "names", dict(self.names or {}))

    def as_json(self) -> dict[str, Any]:
        return {"releases": list(self.releases),
                "modules": {k: v.as_json() for k, v in sorted(self.modules.items())},
                "names": {k: v.as_json() for k, v in sorted(self.names.items())}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> NameHistory:
        return cls(tuple(data["releases"]), {k: Span.from_json(v) for k, v in data["modules"].items()},
                   {k: Span.from_json(v) for k, v in data["names"].items()})


def public_module(path: str) -> str | None:
    """The module a file of the package is, when it is a public one: `jax/experimental/maps.py` is
    `jax.experimental.maps`; `jax/_src/core.py` and `jax/foo-bar.py` are none."""
    parts = path.split("/")
    if parts[0] != PACKAGE_DIR or not path.endswith(".py"):
        return None
    stem = parts[:-1] + ([] if parts[-1] == "__init__.py" else [parts[-1][:-3]])
    if not all(part.isidentifier() and not part.startswith("_") for part in stem):
        return None
    return module_name(path)


def name_history(session: Session) -> NameHistory:
    """What the crawled snapshots say of each public module and its names (see the module docstring)."""
    snapshots = ordered_snapshots(session)
    if len(snapshots) < 2:
        return NameHistory(tuple(s.label for s in snapshots))
    position = {s.id: i for i, s in enumerate(snapshots)}
    held: dict[int, dict[str, tuple[str, str]]] = defaultdict(dict)  # position: module: (blob, path)
    spans = session.execute(select(FileSpan.path, FileSpan.blob_sha, FileSpan.first_snapshot, FileSpan.last_snapshot))
    for path, blob, first, last in spans:
        if (module := public_module(path)) is None:
            continue
        for snapshot_id, at in position.items():
            if first <= snapshot_id and (last is None or snapshot_id <= last):
                held[at][module] = (blob, path)
    summaries = stored_summaries(session, {key for modules in held.values() for key in modules.values()})
    namespaces = [release_namespaces({module: summaries.get(key) for module, key in held.get(at, {}).items()})
                  for at in range(len(snapshots))]
    return history_of(tuple(s.label for s in snapshots), namespaces)


@dataclass(frozen=True)
class Namespace:
    """A module's names in one release: those it surely has, and whether they are all it has (`closed`); the
    entries of its deprecation table that warn, with their words."""

    names: frozenset[str]
    closed: bool
    warns: Mapping[str, str | None]


def release_namespaces(summaries: Mapping[str, Mapping[str, Any] | None]) -> dict[str, Namespace]:
    """The names of each public module of one release, from its call summary (None: not read): its top-level
    bindings, the modules of its package, the entries of its deprecation table that warn, and what it star-imports
    from another public module (that one's `__all__`, else its names not starting with `_`).

    A module's names are all known (`Namespace.closed`) unless its summary was not read, it has a `__getattr__` of its
    own, or it star-imports a module that is not public, not read, itself not closed (and has no `__all__`), or is on
    a cycle of star imports."""
    made: dict[str, Namespace] = {}

    def namespace(module: str, importing: frozenset[str]) -> Namespace:
        if module in made:
            return made[module]
        prefix = f"{module}."
        submodules = {m[len(prefix):] for m in summaries if m.startswith(prefix) and "." not in m[len(prefix):]}
        summary = summaries[module]
        if summary is None:  # not read (a file this Python cannot parse): nothing known but its modules
            return made.setdefault(module, Namespace(frozenset(submodules), False, {}))
        space = summary.get("namespace", {})
        warns = {name: message for name, (message, raises) in space.get("deprecated", {}).items() if not raises}
        names = (set(summary["bindings"]) - set(space.get("deleted", ()))) | submodules | set(warns)
        closed = space.get("getattr") in (None, "table")
        for star in space.get("star", ()):
            other = summaries.get(star)
            if star in importing or other is None:
                closed = False
                continue
            if other.get("all") is not None:
                names |= set(other["all"])
            else:
                imported = namespace(star, importing | {module})
                names |= {name for name in imported.names if not name.startswith("_")}
                closed = closed and imported.closed
        return made.setdefault(module, Namespace(frozenset(names), closed, warns))

    return {module: namespace(module, frozenset()) for module in sorted(summaries)}


def history_of(releases: tuple[str, ...], namespaces: list[dict[str, Namespace]]) -> NameHistory:
    """The spans of the modules and public names that some release lacked, from each release's modules
    (`namespaces`, by position in `releases`)."""
    newest = len(releases) - 1
    present: dict[str, list[int]] = defaultdict(list)
    for at, modules in enumerate(namespaces):
        for module in modules:
            present[module].append(at)
    modules = {m: Span(ats[0] if ats[0] > 0 else None, ats[-1] if ats[-1] < newest else None)
               for m, ats in present.items()}
    names: dict[str, Span] = {}
    for module, ats in present.items():
        within: dict[str, list[int]] = defaultdict(list)
        for at in ats:
            for name in namespaces[at][module].names:
                if not name.startswith("_"):
                    within[name].append(at)
        for name, had in within.items():
            before = [at for at in ats if at < had[0]]
            after = [at for at in ats if at > had[-1]]
            # A release of the module without the name, each of whose kind (before or after) shows all its names.
            first = had[0] if before and all(namespaces[at][module].closed for at in before) else None
            last = had[-1] if after and all(namespaces[at][module].closed for at in after) else None
            warned = [at for at in had if name in namespaces[at][module].warns]
            if first is None and last is None and not warned:
                continue
            names[f"{module}.{name}"] = Span(first, last, warned[0] if warned else None,
                                             namespaces[warned[-1]][module].warns[name] if warned else None)
    return NameHistory(releases, {m: s for m, s in modules.items() if s.first is not None or s.last is not None},
                       names)
