"""The catalogue as the site shows it: one card per error id, read with a handful of bulk queries."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from functools import cached_property
from typing import Any

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from jax_errors.db import queries
from jax_errors.db.models import RaiseSite, Reproduction, Snapshot
from jax_errors.harness.cases import Case
from jax_errors.knowledge import Knowledge
from jax_errors.site_gen.links import github_url, is_commit, module_name

# How a card's reproduction stands when no case has been run for it.
UNVERIFIED = "unverified"
# Best first: the status a card shows when several cases (or jax versions) ran for it.
STATUS_ORDER = ("reproduced", "message-mismatch", "wrong-site", "no-error", "crashed", "timeout", UNVERIFIED)
TITLE_LENGTH = 120
SECOND = timedelta(seconds=1)
# Template parts that only bracket optional pieces; they have no text of their own.
MARKERS = frozenset({"opt_begin", "opt_end"})


@dataclass(frozen=True)
class SnapshotInfo:
    """A crawled JAX state, as cards cite it."""

    id: int
    commit: str
    tag: str | None
    version: str | None
    origin: str
    committed_at: datetime | None
    crawled_at: datetime
    rank: int = 0  # 0 is the oldest snapshot of the catalogue; see `order_snapshots`

    @classmethod
    def from_row(cls, row: Snapshot) -> SnapshotInfo:
        return cls(row.id, row.commit, row.tag, row.version, row.origin, row.committed_at, row.crawled_at)

    @property
    def label(self) -> str:
        return self.tag or self.version or self.commit[:10]

    @property
    def ref(self) -> str:
        """What a GitHub permalink pins: the commit, or the release tag when the commit is unknown."""
        return self.commit if is_commit(self.commit) else (self.tag or self.commit)

    @property
    def date(self) -> datetime:
        # An installed wheel records no commit date; its crawl time is the best date the DB has.
        return (self.committed_at or self.crawled_at).replace(microsecond=0)

    @property
    def order(self) -> int:
        return self.rank

    @property
    def release(self) -> str | None:
        """The jax release version this snapshot is, if it is one."""
        if self.version:
            return self.version
        return self.tag.removeprefix("jax-v") if self.tag and self.tag.startswith("jax-v") else None


@dataclass(frozen=True)
class Location:
    """Where an error stands in one snapshot."""

    snapshot: SnapshotInfo
    path: str
    lineno: int
    end_lineno: int
    qualname: str

    @property
    def url(self) -> str:
        return github_url(self.snapshot.ref, self.path, self.lineno, self.end_lineno)

    @property
    def module(self) -> str:
        return module_name(self.path)


@dataclass(frozen=True)
class Run:
    """One recorded reproduction of a case on one jax version."""

    case_name: str
    jax_version: str
    status: str
    detail: str | None
    observed_class: str | None
    observed_message: str | None
    frames: tuple[dict[str, Any], ...]
    error_id: str | None
    expected_error_id: str | None
    path: str | None
    lineno: int | None
    fixed_ok: bool
    fixed_error: str | None
    ran_at: datetime

    @classmethod
    def from_row(cls, row: Reproduction) -> Run:
        return cls(
            row.case_name, row.jax_version, row.status, row.detail, row.observed_class, row.observed_message,
            tuple(row.frames or ()), row.error_id, row.expected_error_id, row.path, row.lineno,
            row.fixed_ok, row.fixed_error, row.ran_at.replace(microsecond=0),
        )

    @property
    def rank(self) -> tuple:
        return (_status_rank(self.status), _negated_version(self.jax_version), self.case_name)


@dataclass(frozen=True)
class Related:
    error_id: str
    title: str
    reason: str
    similarity: float


@dataclass(frozen=True)
class Card:
    """Everything the site shows about one error id."""

    id: str
    site: RaiseSite  # the newest occurrence's raise site
    location: Location  # ... and where it stands
    locations: tuple[Location, ...]  # every snapshot it appears in, newest first
    knowledge: Knowledge | None = None
    case: Case | None = None
    runs: tuple[Run, ...] = ()  # best first
    aliases: tuple[str, ...] = ()  # file-level base ids, where a shared one made the id mix in its path
    related: tuple[Related, ...] = field(default=())

    @property
    def exc_class(self) -> str:
        """The exception class as resolved, or the raised expression when it could not be."""
        return self.site.exc_class or self.site.exc_expr

    @property
    def class_name(self) -> str:
        return self.exc_class.rsplit(".", 1)[-1] if self.site.exc_class else self.exc_class

    @property
    def module(self) -> str:
        return self.location.module

    @cached_property
    def title(self) -> str:
        """The message with placeholders as `…`, shortened: what a reader recognises."""
        return message_title(self.site.template_parts) or f"{self.class_name} in {self.site.qualname}"

    @property
    def status(self) -> str:
        return self.runs[0].status if self.runs else UNVERIFIED

    @property
    def run(self) -> Run | None:
        return self.runs[0] if self.runs else None

    @property
    def modified(self) -> datetime:
        return self.locations[0].snapshot.date

    @property
    def published(self) -> datetime:
        return min(loc.snapshot.date for loc in self.locations)

    @property
    def versions(self) -> list[str]:
        return sorted({v for loc in self.locations if (v := loc.snapshot.release)}, key=_version_key)

    @property
    def commits(self) -> list[str]:
        return [loc.snapshot.commit for loc in self.locations]


@dataclass(frozen=True)
class Catalogue:
    """All cards (by id) and the snapshots they come from (newest first)."""

    cards: dict[str, Card]
    snapshots: tuple[SnapshotInfo, ...]

    @property
    def newest(self) -> SnapshotInfo | None:
        return self.snapshots[0] if self.snapshots else None

    def sorted_cards(self) -> list[Card]:
        return [self.cards[key] for key in sorted(self.cards)]


def load_catalogue(
    engine: Engine, *, knowledge: Mapping[str, Knowledge] | None = None, cases: Iterable[Case] = (),
) -> Catalogue:
    """Read every error id of every snapshot into cards, joined with curated knowledge and cases."""
    with Session(engine) as session:
        ordered = order_snapshots(SnapshotInfo.from_row(row) for row in queries.catalogue_snapshots(session))
        snapshots = {snap.id: snap for snap in ordered}
        placed = queries.catalogue_occurrences(session)
        sites = queries.catalogue_sites(session)
        runs = [Run.from_row(row) for row in queries.all_reproductions(session)]
        for site in sites.values():
            session.expunge(site)
    knowledge = dict(knowledge or {})
    cases_by_name = {case.name: case for case in cases}
    runs_by_error = _runs_by_error(runs, knowledge)
    cards = {}
    for error_id, occurrences in _group(placed).items():
        locations = sorted((_location(p, sites, snapshots) for p in occurrences),
                           key=lambda loc: (loc.snapshot.order, loc.path), reverse=True)
        newest = next(p for p in occurrences if p.snapshot_id == locations[0].snapshot.id
                      and p.path == locations[0].path)
        entry = knowledge.get(error_id)
        cards[error_id] = Card(
            id=error_id, site=sites[newest.site_id], location=locations[0], locations=tuple(locations),
            knowledge=entry, case=_case_for(error_id, entry, cases_by_name, runs_by_error.get(error_id, ())),
            runs=tuple(sorted(runs_by_error.get(error_id, ()), key=lambda r: r.rank)),
            aliases=tuple(sorted({b for p in occurrences if (b := sites[p.site_id].base_id) and b != error_id})),
        )
    return Catalogue(cards, tuple(reversed(ordered)))


def order_snapshots(snapshots: Iterable[SnapshotInfo]) -> list[SnapshotInfo]:
    """Oldest first, each with its rank, by commit date.

    An installed wheel has no commit date (unless its commit was also crawled from git). It is
    placed just before the first dated release of a higher version, else after every dated
    snapshot; with none dated, crawl times order the snapshots.
    """
    snapshots = list(snapshots)
    dated = [s for s in snapshots if s.committed_at is not None]

    def when(snap: SnapshotInfo) -> datetime:
        if snap.committed_at is not None:
            return snap.committed_at
        if not dated or snap.release is None:
            return snap.crawled_at
        version = _version_key(snap.release)
        later = [d.committed_at for d in dated if d.release and _version_key(d.release) > version]
        return min(later) - SECOND if later else max(d.committed_at for d in dated) + SECOND  # type: ignore[type-var]

    ordered = sorted(snapshots, key=lambda s: (when(s), s.id))
    return [replace(snap, rank=rank) for rank, snap in enumerate(ordered)]


def _group(placed: Iterable[queries.PlacedSite]) -> dict[str, list[queries.PlacedSite]]:
    groups: dict[str, list[queries.PlacedSite]] = defaultdict(list)
    for row in placed:
        groups[row.error_id].append(row)
    return groups


def _location(placed: queries.PlacedSite, sites: Mapping[int, RaiseSite],
              snapshots: Mapping[int, SnapshotInfo]) -> Location:
    site = sites[placed.site_id]
    return Location(snapshots[placed.snapshot_id], placed.path, site.lineno, site.end_lineno, site.qualname)


def _runs_by_error(runs: Iterable[Run], knowledge: Mapping[str, Knowledge]) -> dict[str, list[Run]]:
    """The runs that speak about each error: attributed to it, expected to hit it, or its curated case."""
    case_owner = {k.case: k.error_id for k in knowledge.values() if k.case}
    by_error: dict[str, list[Run]] = defaultdict(list)
    for run in runs:
        for error_id in {run.error_id, run.expected_error_id, case_owner.get(run.case_name)} - {None}:
            by_error[error_id].append(run)
    return by_error


def _case_for(error_id: str, entry: Knowledge | None, cases: Mapping[str, Case], runs: Iterable[Run]) -> Case | None:
    """The case whose trigger/fixed bodies are the card's before/after fix."""
    if entry and entry.case and entry.case in cases:
        return cases[entry.case]
    named = sorted(name for name, case in cases.items() if case.error_id == error_id)
    if named:
        return cases[named[0]]
    reproduced = sorted(r.case_name for r in runs if r.status == "reproduced" and r.error_id == error_id)
    return cases.get(reproduced[0]) if reproduced else None


def message_title(parts: list[list[str]]) -> str:
    """The literal text of a template, placeholders as `…`, whitespace folded, cut at TITLE_LENGTH."""
    text = "".join(t if kind == "lit" else "" if kind in MARKERS else "…" for kind, t in parts)
    text = " ".join(text.split())
    if not text.strip("… "):
        return ""
    return text if len(text) <= TITLE_LENGTH else text[:TITLE_LENGTH - 1].rstrip() + "…"


def _status_rank(status: str) -> int:
    return STATUS_ORDER.index(status) if status in STATUS_ORDER else len(STATUS_ORDER)


def _version_key(version: str) -> tuple:
    return tuple(int(p) if p.isdigit() else -1 for p in version.replace("rc", ".-1.").split("."))


def _negated_version(version: str) -> tuple:
    return tuple(-p for p in _version_key(version))
