"""Which crawled releases had each public module of jax, and each name of one.

A user upgrading jax meets `module 'jax' has no attribute 'tree_multimap'`, `No module named
'jax.experimental.maps'` or `cannot import name 'PRNGKeyArray' from 'jax.random'`. The interpreter words
these (or a module's `__getattr__` words them as it does), so no card tells what happened; the crawl does:
a public module exists where its file does (`FileSpan`), and has the names its call summary's namespace
lists (`crawler.namespaces`: what its top level binds when it runs, its package's modules, the entries
of its deprecation table that warn, and what it star-imports from another public module).

Only what the sources show for certain is told. A module that star-imports one that is not public, has a
`__getattr__` of its own (not one reading a deprecation table) or sets names by other means
(`globals()[name] = ...`) does not show all its names: no release of it is said to lack one, and a name
whose end falls among such releases is left out.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from jax_errors.crawler.callgraph import is_public_module
from jax_errors.crawler.entry_points import stored_summaries
from jax_errors.crawler.imports import module_name
from jax_errors.db.history import ordered_snapshots
from jax_errors.db.models import FileSpan


@dataclass(frozen=True)
class Span:
    """The releases a module or a name was in, as positions in `NameHistory.releases`: the first (None: it was in the
    first release crawled, or the sources cannot tell that the releases before it lacked it) and the last (None: the
    newest has it); it may have been missing from some between. `warned` is the first release whose deprecation
    table warned on reading the name, and `warning` what the newest such table said."""

    first: int | None
    last: int | None
    warned: int | None = None
    warning: str | None = None

    def as_json(self) -> list[Any]:
        return [self.first, self.last, self.warned, self.warning]


@dataclass(frozen=True)
class NameHistory:
    """The releases crawled, oldest first (labels); the span of each module some release lacked; the span of each
    name (`module.name`) that tells more than its module's, and the names whose span is their module's."""

    releases: tuple[str, ...] = ()
    modules: Mapping[str, Span] = field(default_factory=dict)
    names: Mapping[str, Span] = field(default_factory=dict)
    module_names: Mapping[str, frozenset[str]] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        """The plain JSON `lookup.names` reads (and api/names.json holds)."""
        return {"releases": list(self.releases),
                "modules": {k: v.as_json() for k, v in sorted(self.modules.items())},
                "names": {k: v.as_json() for k, v in sorted(self.names.items())},
                "module_names": {k: sorted(v) for k, v in sorted(self.module_names.items())}}


def public_module(path: str) -> str | None:
    """The module a file of the package is, when it is a public one: `jax/experimental/maps.py` is
    `jax.experimental.maps`; `jax/_src/core.py` and `jax/foo-bar.py` are none."""
    if not path.endswith(".py") or "." in path[:-3]:  # `jax/foo.bar.py` is no module's file
        return None
    module = module_name(path)
    return module if is_public_module(module) else None


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
    """A module's names in one release (those its top level binds when it runs among them), whether they are all it
    has (`closed`), and the entries of its deprecation table that warn, with their words."""

    names: frozenset[str]
    closed: bool
    warns: Mapping[str, str | None]


def release_namespaces(summaries: Mapping[str, Mapping[str, Any] | None]) -> dict[str, Namespace]:
    """The names of each public module of one release, from its call summary (None: not read): what its top level
    binds, the modules of its package, the entries of its deprecation table that warn, and what it star-imports from
    another public module (that one's `__all__`, else its names not starting with `_`).

    A module's names are all known (`Namespace.closed`) unless its summary was not read, it has a `__getattr__` of its
    own, it sets names by other means, or it star-imports a module that is not public, not read, itself not closed
    (and has no `__all__`), or is on a cycle of star imports."""
    made: dict[str, Namespace] = {}

    def namespace(module: str, importing: frozenset[str]) -> Namespace:
        if module in made:
            return made[module]
        prefix = f"{module}."
        submodules = {m[len(prefix):] for m in summaries if m.startswith(prefix) and "." not in m[len(prefix):]}
        summary = summaries[module]
        if summary is None or "namespace" not in summary:  # not read: nothing known but its modules
            return made.setdefault(module, Namespace(frozenset(submodules), False, {}))
        space = summary["namespace"]
        warns = {name: message for name, (message, raises) in space["deprecated"].items() if not raises}
        names = set(space["names"]) | submodules | set(warns)
        closed = space["getattr"] in (None, "table") and not space["filled"]
        for star in space["star"]:
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
    """The spans of the modules and public names some release lacked, from each release's modules (`namespaces`, by
    position in `releases`; see `Span`)."""
    newest = len(releases) - 1
    present: dict[str, list[int]] = defaultdict(list)
    for at, modules in enumerate(namespaces):
        for module in modules:
            present[module].append(at)
    modules = {m: Span(ats[0] if ats[0] > 0 else None, ats[-1] if ats[-1] < newest else None)
               for m, ats in present.items()}
    told = {m: span for m, span in modules.items() if span.first is not None or span.last is not None}
    names: dict[str, Span] = {}
    module_names: dict[str, set[str]] = defaultdict(set)
    for module, ats in present.items():
        within: dict[str, list[int]] = defaultdict(list)
        for at in ats:
            for name in namespaces[at][module].names:
                if not name.startswith("_"):
                    within[name].append(at)

        def known(positions: list[int], module: str = module) -> bool:
            """Whether the module showed all its names in each of these releases."""
            return all(namespaces[at][module].closed for at in positions)

        for name, had in within.items():
            if had[-1] < newest and not known([at for at in ats if at > had[-1]]):
                continue  # gone, but where to it cannot be told
            first = had[0] if had[0] > 0 and known([at for at in ats if at < had[0]]) else None
            last = had[-1] if had[-1] < newest else None
            warned = [at for at in had if name in namespaces[at][module].warns]
            span = Span(first, last, warned[0] if warned else None,
                        namespaces[warned[-1]][module].warns[name] if warned else None)
            if span == modules[module]:
                if module in told:
                    module_names[module].add(name)  # it came and went with its module
            elif first is not None or last is not None or warned:
                names[f"{module}.{name}"] = span
    return NameHistory(releases, told, names, {m: frozenset(n) for m, n in module_names.items()})
