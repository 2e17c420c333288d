"""The catalogue as the site shows it: one card per error id, read with a handful of bulk queries."""

from __future__ import annotations

import ast
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import cached_property, partial
from typing import Any, TypeVar

from sqlalchemy import Engine
from sqlalchemy.orm import Session

from jax_errors.crawler.docs_store import newest_passages
from jax_errors.crawler.imports import module_name
from jax_errors.crawler.template_builder import build_template
from jax_errors.db import queries
from jax_errors.db.commit_history import CommitHistory, commit_histories, read_line
from jax_errors.db.engine import consistent_reads
from jax_errors.db.history import (
    CatalogueHistory,
    ErrorHistory,
    catalogue_history,
    lineage,
    lineage_end,
    live_successor,
)
from jax_errors.db.models import ProbedCall, RaiseSite, Reproduction, Snapshot
from jax_errors.db.name_history import name_history
from jax_errors.forked import Forked
from jax_errors.lookup.build import caller_form_entries, earlier_wordings, worded_elsewhere
from jax_errors.lookup.index import Entry
from jax_errors.lookup.said import read_raise
from jax_errors.reproduce.cases import Case
from jax_errors.site_gen.doc_mentions import DocMention, ErrorWords, doc_mentions
from jax_errors.site_gen.knowledge import Knowledge
from jax_errors.site_gen.links import github_url
from jax_errors.site_gen.raised_by import Caller, callers_of
from jax_errors.snapshots import is_commit, release_of, snapshot_label, version_key
from jax_errors.template import Template, Wording, as_raised, optional

T = TypeVar("T")

# How a card's reproduction stands when no case has been run for it.
UNVERIFIED = "unverified"
# Best first: the status a card shows when several cases (or jax versions) ran for it.
STATUS_ORDER = ("reproduced", "message-mismatch", "wrong-site", "no-error", "crashed", "timeout", UNVERIFIED)


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
    rank: int = 0  # 0 is the oldest snapshot of the catalogue, in `history.ordered_snapshots`'s order

    @classmethod
    def from_row(cls, row: Snapshot, rank: int = 0) -> SnapshotInfo:
        return cls(row.id, row.commit, row.tag, row.version, row.origin, row.committed_at, row.crawled_at, rank)

    @property
    def label(self) -> str:
        return snapshot_label(self.tag, self.version, self.commit)

    @property
    def ref(self) -> str:
        """What a GitHub permalink pins: the commit, or the release tag when the commit is unknown."""
        return self.commit if is_commit(self.commit) else (self.tag or self.commit)

    @property
    def date(self) -> datetime:
        # An installed wheel records no commit date; its crawl time is the best date the DB has.
        return (self.committed_at or self.crawled_at).replace(microsecond=0)

    @property
    def release(self) -> str | None:
        """The jax release version this snapshot is, if it is one."""
        return release_of(self.version, self.tag)


@dataclass(frozen=True)
class Location:
    """Where an error stands over a run of consecutive snapshots in which its raise site reads the same.

    Links pin the run's first snapshot. A run that reaches the newest snapshot has no `until`, so
    crawling a commit that leaves the site alone changes nothing about the card.
    """

    snapshot: SnapshotInfo  # the first snapshot of the run
    path: str
    lineno: int
    end_lineno: int
    qualname: str
    until: SnapshotInfo | None = None  # the run's last snapshot, when a newer one no longer has it here

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
        """Best first: by status, then the newest jax version, then case name."""
        (numbers, final, candidate) = version_key(self.jax_version)
        return (_status_rank(self.status), tuple(-n for n in numbers), -final, -candidate, self.case_name)


@dataclass(frozen=True)
class Related:
    error_id: str
    title: str
    reason: str
    similarity: float


@dataclass(frozen=True)
class ErrorLink:
    """Another card, by id and title (and the name of its class, where a card says it)."""

    error_id: str
    title: str
    class_name: str = ""


@dataclass(frozen=True)
class EarlierMessage:
    """A message no longer raised that leads to a card, the newest snapshot that raised it, and the card of the raise
    that made it, when that is another (a helper whose caller now raises the card's check)."""

    template: Template
    until: str
    raised_by: ErrorLink | None = None


@dataclass(frozen=True)
class TestedAssert:
    """One assert of JAX's tests that caught the error at its site, and the tests (node ids) that ran it."""

    path: str
    line: int | None
    commit: str
    assert_kind: str | None
    pattern: str | None
    node_ids: tuple[str, ...]
    jax_version: str
    error_id: str  # the id it caught: an earlier one of the card's lineage, for a test carried over


def tested_asserts(tests: Iterable[queries.TriggeringTest]) -> tuple[TestedAssert, ...]:
    """Confirmed catches grouped by assert (a parameterized test runs one assert many times), by path and line."""
    grouped: dict[tuple[str, int | None, str], list[queries.TriggeringTest]] = {}
    for test in tests:
        grouped.setdefault((test.path, test.line, test.commit), []).append(test)
    return tuple(
        TestedAssert(path, line, commit, group[0].assert_kind, group[0].pattern,
                     tuple(sorted({t.node_id for t in group})), group[0].jax_version, group[0].error_id)
        for (path, line, commit), group in sorted(grouped.items(), key=lambda kv: (kv[0][0], kv[0][1] or 0, kv[0][2]))
    )


@dataclass(frozen=True)
class CardHistory:
    """When an error was raised, across the crawled snapshots."""

    first: SnapshotInfo
    last: SnapshotInfo | None  # None while the newest snapshot still raises it
    retired_since: SnapshotInfo | None  # the first snapshot after `last`, which no longer raises it
    versions: tuple[str, ...]  # releases that raise it, oldest first
    reworded_from: tuple[ErrorLink, ...] = ()  # earlier wordings of this error (other ids)
    reworded_to: tuple[ErrorLink, ...] = ()  # later wordings
    moved_from: tuple[ErrorLink, ...] = ()  # the same words raised before from another function or file
    moved_to: tuple[ErrorLink, ...] = ()  # where the same words are raised later
    lives_on: ErrorLink | None = None  # of a retired error, the raised one its rewordings and moves lead to
    ended_as: str | None = None  # of a removed error that went on before it was removed, the id it ended as
    commits: CommitHistory | None = None  # commit by commit, where the first-parent history was crawled

    @property
    def successors(self) -> tuple[ErrorLink, ...]:
        return self.reworded_to + self.moved_to


@dataclass(frozen=True)
class Card:
    """Everything the site shows about one error id."""

    id: str
    site: RaiseSite  # the newest occurrence's raise site
    location: Location  # ... and where it stands
    locations: tuple[Location, ...]  # runs of snapshots where it stands alike, newest first
    history: CardHistory
    knowledge: Knowledge | None = None
    case: Case | None = None
    runs: tuple[Run, ...] = ()  # best first
    aliases: tuple[str, ...] = ()  # file-level base ids, where a shared one made the id mix in its path
    related: tuple[Related, ...] = field(default=())
    tests: tuple[queries.TriggeringTest, ...] = ()  # JAX tests whose assert caught it at its site
    probes: tuple[ProbedCall, ...] = ()  # generated calls of public functions seen raising it (`triggers probe`)
    linked_asserts: int = 0  # mined asserts whose pattern alone points at it
    worded_by_class: Template | None = None  # the message as its class, a factory or helpers elsewhere word it
    worded_by: tuple[str, ...] = ()  # ... which classes and functions, by dotted path
    made_class: str | None = None  # the class a function of its snapshot makes for the raise (a factory's, makers')
    example_message: str | None = None  # a message it was seen raising, shown where the template is incomplete
    public_callers: tuple[queries.PublicCaller, ...] = ()  # public names reaching its raising function
    docs: tuple[DocMention, ...] = ()  # passages of JAX's docs quoting its message or naming its class
    # messages no longer raised that lead here: wordings other modules made, and callers' (`Catalogue.earlier`)
    earlier_messages: tuple[EarlierMessage, ...] = ()

    @property
    def live_id(self) -> str | None:
        """The error it lives on as: itself while raised, None once its lineage was removed."""
        if self.history.retired_since is None:
            return self.id
        return self.history.lives_on.error_id if self.history.lives_on else None

    @property
    def exc_class(self) -> str:
        """The exception class as resolved, or the raised expression when it could not be."""
        return self.made_class or self.site.exc_class or self.site.exc_expr

    @property
    def class_resolved(self) -> bool:
        return self.made_class is not None or self.site.exc_class is not None

    @property
    def class_name(self) -> str:
        return self.exc_class.rsplit(".", 1)[-1] if self.class_resolved else self.exc_class

    @property
    def module(self) -> str:
        return self.location.module

    @cached_property
    def template(self) -> Template:
        """The message as users see it: the raise's own template, or its class's wording of it."""
        return self.worded_by_class or Template.from_json(self.site.template_parts)

    @cached_property
    def passed(self) -> tuple[Template, ...]:
        """Of a raise whose class words its message around what it is given (`ConcretizationTypeError(self, f"The
        delete() method was called on ...")`), the arguments of words it passes, as templates; a name it passes
        read as its function last assigned it (`read_raise`), what `+=` adds after that as optional."""
        read = read_raise(self.site) if self.worded_by_class is not None else None
        if read is None or not isinstance(read.raised, ast.Call):
            return ()

        def assigned(name: ast.Name) -> Template | None:
            first, *added = read.assigned.get(name.id) or [None]
            if first is None:
                return None
            return sum((optional(build_template(value)) for value in added), build_template(first))

        arguments = (*read.raised.args, *(keyword.value for keyword in read.raised.keywords))
        return tuple(t for argument in arguments if (t := build_template(argument, resolve_name=assigned)).has_words)

    @cached_property
    def title(self) -> str:
        """The message's words with placeholders as `…`, shortened; else the class and the function raising it."""
        return self.template.title or f"{self.class_name} in {self.site.qualname.split('.<locals>')[0]}"

    @property
    def status(self) -> str:
        return self.runs[0].status if self.runs else UNVERIFIED

    @property
    def run(self) -> Run | None:
        return self.runs[0] if self.runs else None

    @property
    def traced_runs(self) -> list[Run]:
        """The runs that raised this very error and kept its traceback, best first."""
        return [run for run in self.runs if run.error_id == self.id and run.frames]

    @cached_property
    def callers(self) -> tuple[Caller, ...]:
        """The public functions reaching its raise (the crawl's call graph), marked where a reproduction passed."""
        tracebacks: dict[str, list[dict[str, Any]]] = {}
        for run in self.traced_runs:
            tracebacks.setdefault(run.case_name, []).extend(run.frames)
        return callers_of(self.public_callers, tracebacks)

    @cached_property
    def tested_asserts(self) -> tuple[TestedAssert, ...]:
        return tested_asserts(self.tests)

    @property
    def modified(self) -> datetime:
        """When the error last changed: its site started to read as it does, or it was retired."""
        retired = self.history.retired_since
        return max(self.location.snapshot.date, retired.date) if retired else self.location.snapshot.date

    @property
    def published(self) -> datetime:
        return self.history.first.date

    @property
    def versions(self) -> list[str]:
        return list(self.history.versions)

    @property
    def retired(self) -> bool:
        return self.history.retired_since is not None


@dataclass(frozen=True)
class Catalogue:
    """All cards (by id) and the snapshots they come from (newest first)."""

    cards: dict[str, Card]
    snapshots: tuple[SnapshotInfo, ...]
    diffs: tuple[Diff, ...] = ()  # of each consecutive pair of snapshots, newest first
    # What lookup needs besides the cards: the messages each error id was seen raising, and the earlier wordings
    # of errors whose words other modules make (`lookup.build.earlier_wordings`) or callers made
    # (`lookup.build.caller_form_entries`).
    observed: Mapping[str, list[str]] = field(default_factory=dict)
    earlier: tuple[Entry, ...] = ()
    # What the releases say of each module and name some lacked (`db.name_history`, as JSON).
    names: Mapping[str, Any] | None = None

    @property
    def newest(self) -> SnapshotInfo | None:
        return self.snapshots[0] if self.snapshots else None

    def sorted_cards(self) -> list[Card]:
        return [self.cards[key] for key in sorted(self.cards)]


@dataclass(frozen=True)
class Diff:
    """The errors one snapshot added, removed, moved and reworded relative to the one before it."""

    old: SnapshotInfo
    new: SnapshotInfo
    added: tuple[str, ...]
    removed: tuple[str, ...]
    reworded: tuple[tuple[str, str], ...]  # (old id, new id)
    moved: tuple[tuple[str, str], ...] = ()  # (old id, new id)


def load_catalogue(
    engine: Engine, *, knowledge: Mapping[str, Knowledge] | None = None, cases: Iterable[Case] = (),
) -> Catalogue:
    """Read every error id of every snapshot into cards, joined with curated knowledge and cases."""
    with Session(engine) as session:
        consistent_reads(session)
        history = catalogue_history(session)
        line = read_line(session)
        placed = queries.catalogue_occurrences(session)
        # Each error's commit-by-commit history is made on the second core while the rest is read.
        commits = Forked(partial(commit_histories, line, {p.error_id for p in placed}), fork=bool(line.commits))
        try:
            return _cards(session, history, placed, commits, knowledge=dict(knowledge or {}), cases=cases)
        finally:
            commits.stop()


def _cards(session: Session, history: CatalogueHistory, placed: list[queries.PlacedSite],
           commits: Forked[dict[str, CommitHistory]], *, knowledge: dict[str, Knowledge],
           cases: Iterable[Case]) -> Catalogue:
    ordered = [SnapshotInfo.from_row(row, rank) for rank, row in enumerate(history.snapshots)]
    snapshots = {snap.id: snap for snap in ordered}
    sites = queries.catalogue_sites(session)
    runs = [Run.from_row(row) for row in queries.all_reproductions(session)]
    tests = queries.confirmed_triggers(session)
    probes = queries.probed_calls(session)
    linked = queries.static_link_counts(session)
    wording = queries.worded_messages(session)
    observed = queries.observed_messages(session)
    groups = _group(placed)
    spans = {error_id: _spans(occurrences, sites, snapshots, newest_rank=len(ordered) - 1)
             for error_id, occurrences in groups.items()}
    # Each card shows who calls its newest raising function: only those functions' callers are read.
    callers = queries.public_callers(session, {_function_key(s[0][1], sites) for s in spans.values()})
    passages = newest_passages(session, [snap.id for snap in reversed(ordered)])
    cases_by_name = {case.name: case for case in cases}
    cases_by_error = _cases_by_error(cases_by_name)
    runs_by_error = _runs_by_error(runs, knowledge)
    cards = {}
    for error_id, occurrences in groups.items():
        newest = spans[error_id][0][1]
        # A live error without curated text takes its predecessor's: the words or place changed, not the error.
        entry = knowledge.get(error_id) or next(
            (knowledge[i] for i in lineage(error_id, history.errors) if i in knowledge), None)
        cards[error_id] = Card(
            id=error_id, site=sites[newest.site_id], location=spans[error_id][0][0],
            locations=tuple(loc for loc, _ in spans[error_id]),
            history=_card_history(history.errors[error_id], snapshots, newest_rank=len(ordered) - 1,
                                  lives_on=_lives_on(error_id, history.errors),
                                  ended_as=lineage_end(error_id, history.errors)),
            knowledge=entry,
            case=_case_for(error_id, entry, cases_by_name, cases_by_error, runs_by_error.get(error_id, ())),
            runs=tuple(sorted(runs_by_error.get(error_id, ()), key=lambda r: r.rank)),
            aliases=tuple(sorted({b for p in occurrences if (b := sites[p.site_id].base_id) and b != error_id})),
            tests=_carried(error_id, tests, history.errors), probes=_carried(error_id, probes, history.errors),
            linked_asserts=linked.get(error_id, 0),
            public_callers=tuple(callers.get(_function_key(newest, sites), ())),
            **_wording(sites[newest.site_id], wording.get(newest.snapshot_id, Wording()),
                       observed.get(error_id, ())),
        )
    earlier = tuple(
        entry for error_id, occurrences in sorted(groups.items()) if worded_elsewhere(cards[error_id].site)
        for entry in earlier_wordings(
            error_id, cards[error_id].template,
            [(snapshots[p.snapshot_id].rank, snapshots[p.snapshot_id], sites[p.site_id], p.path) for p in occurrences],
            wording, live_successor(error_id, history.errors) or error_id))
    earlier += tuple(caller_form_entries(session, history, wording, {*cards, *(entry.error_id for entry in earlier)}))
    mentions = doc_mentions((ErrorWords(c.id, c.template, c.exc_class if c.class_resolved else None)
                             for c in cards.values()), passages)
    by_error = commits.result()
    leading = _earlier_messages(earlier, cards, ordered)
    cards = {key: replace(card, history=_with_line(card.history, cards, by_error.get(key)), docs=mentions.get(key, ()),
                          earlier_messages=leading.get(key, ()))
             for key, card in cards.items()}
    diffs = tuple(Diff(snapshots[d.old.id], snapshots[d.new.id], tuple(i.error_id for i in d.added),
                       tuple(i.error_id for i in d.removed), tuple((o.error_id, n.error_id) for o, n in d.reworded),
                       tuple((o.error_id, n.error_id) for o, n in d.moved))
                  for d in reversed(history.diffs))
    return Catalogue(cards, tuple(reversed(ordered)), diffs, observed, earlier, name_history(session).as_json())


def _earlier_messages(earlier: Iterable[Entry], cards: Mapping[str, Card], ordered: list[SnapshotInfo]
                      ) -> dict[str, tuple[EarlierMessage, ...]]:
    """Per card, the messages no longer raised that lead to it: newest first, each wording once."""
    rank = {snapshot.label: snapshot.rank for snapshot in ordered}
    leading: dict[str, dict[str, EarlierMessage]] = defaultdict(dict)
    for entry in sorted(earlier, key=lambda e: (-rank.get(e.until or "", -1), e.template.skeleton, e.error_id)):
        by = entry.wording_of if entry.wording_of not in (None, entry.card_id) else None
        leading[entry.card_id].setdefault(entry.template.skeleton, EarlierMessage(
            entry.template, entry.until or "", ErrorLink(by, cards[by].title) if by in cards else None))
    return {card_id: tuple(messages.values()) for card_id, messages in leading.items()}


def _function_key(placed: queries.PlacedSite, sites: Mapping[int, RaiseSite]) -> tuple[int, str, str]:
    return placed.snapshot_id, placed.path, sites[placed.site_id].qualname


def _carried(error_id: str, evidence: Mapping[str, list[T]], errors: dict[str, ErrorHistory]) -> tuple[T, ...]:
    """The tests (or probed calls) that raised this error, and those that raised it under an earlier id of its lineage.

    A test confirmed at one release still makes the error raise after a move or a rewording, so its
    evidence is carried to the live id (each keeps the id and jax it was confirmed with).
    """
    return tuple(item for i in (error_id, *lineage(error_id, errors)) for item in evidence.get(i, ()))


def _wording(site: RaiseSite, wording: Wording, observed: Iterable[str]) -> dict[str, Any]:
    """The card's message as users see it, and a real one to show where the source leaves gaps."""
    own = Template.from_json(site.template_parts)
    template = as_raised(own, site.exc_class, wording)
    seen = sorted({m for m in observed if m.strip()}, key=lambda m: (len(m), m))
    return {"worded_by_class": template if template is not own else None,
            "worded_by": wording.words_from(own, site.exc_class),
            "made_class": wording.class_raised(site.exc_class, site.exc_expr, own),
            "example_message": seen[0] if seen and not template.spelled_out else None}


def _spans(occurrences: list[queries.PlacedSite], sites: Mapping[int, RaiseSite],
           snapshots: Mapping[int, SnapshotInfo], *, newest_rank: int) -> list[tuple[Location, queries.PlacedSite]]:
    """Runs of consecutive snapshots where the error stands at one path and reads the same, newest first.

    Each run comes with its newest occurrence.
    """
    runs: list[list[queries.PlacedSite]] = []
    open_run: dict[tuple, int] = {}  # (path, reading) -> index of the run it may extend
    readings: dict[int, tuple] = {}  # by site: most snapshots of an error share its row
    for placed in sorted(occurrences, key=lambda p: (snapshots[p.snapshot_id].rank, p.path)):
        reading = readings.get(placed.site_id)
        if reading is None:
            reading = readings[placed.site_id] = sites[placed.site_id].reading
        key = (placed.path, reading)
        index = open_run.get(key)
        rank = snapshots[placed.snapshot_id].rank
        if index is not None and snapshots[runs[index][-1].snapshot_id].rank == rank - 1:
            runs[index].append(placed)
        else:
            open_run[key] = len(runs)
            runs.append([placed])
    spans = []
    for run in runs:
        first, last = snapshots[run[0].snapshot_id], snapshots[run[-1].snapshot_id]
        site = sites[run[-1].site_id]
        location = Location(first, run[0].path, site.lineno, site.end_lineno, site.qualname,
                            until=None if last.rank == newest_rank else last)
        spans.append(((last.rank, first.rank, run[0].path), location, run[-1]))
    spans.sort(key=lambda span: span[0], reverse=True)
    return [(location, newest) for _, location, newest in spans]


def _lives_on(error_id: str, errors: dict[str, ErrorHistory]) -> ErrorLink | None:
    live = live_successor(error_id, errors)
    return ErrorLink(live, "") if live is not None and live != error_id else None


def _card_history(history: ErrorHistory, snapshots: Mapping[int, SnapshotInfo], *, newest_rank: int,
                  lives_on: ErrorLink | None, ended_as: str | None) -> CardHistory:
    last = snapshots[history.last.id]
    releases = {r for s in history.snapshots if (r := snapshots[s.id].release)}
    return CardHistory(
        first=snapshots[history.first.id],
        last=None if last.rank == newest_rank else last,
        retired_since=snapshots[history.retired_since.id] if history.retired_since else None,
        versions=tuple(sorted(releases, key=version_key)),
        reworded_from=tuple(ErrorLink(i, "") for i in sorted(set(history.reworded_from))),
        reworded_to=tuple(ErrorLink(i, "") for i in sorted(set(history.reworded_to))),
        moved_from=tuple(ErrorLink(i, "") for i in sorted(set(history.moved_from))),
        moved_to=tuple(ErrorLink(i, "") for i in sorted(set(history.moved_to))),
        lives_on=lives_on,
        ended_as=ended_as,
    )


_LINEAGE_LINKS = ("reworded_from", "reworded_to", "moved_from", "moved_to")


def _with_line(history: CardHistory, cards: Mapping[str, Card], commits: CommitHistory | None) -> CardHistory:
    """The history with its commits on the history line, and its lineage links titled by the cards they point to."""
    if commits is None and not any(getattr(history, name) for name in _LINEAGE_LINKS):
        return history
    titled = {name: tuple(ErrorLink(link.error_id, cards[link.error_id].title)
                          for link in getattr(history, name)) for name in _LINEAGE_LINKS}
    live = history.lives_on and cards[history.lives_on.error_id]
    lives_on = live and ErrorLink(live.id, live.title, live.class_name)
    return replace(history, **titled, lives_on=lives_on, commits=commits)


def _group(placed: Iterable[queries.PlacedSite]) -> dict[str, list[queries.PlacedSite]]:
    groups: dict[str, list[queries.PlacedSite]] = defaultdict(list)
    for row in placed:
        groups[row.error_id].append(row)
    return groups


def _runs_by_error(runs: Iterable[Run], knowledge: Mapping[str, Knowledge]) -> dict[str, list[Run]]:
    """The runs that speak about each error: attributed to it, expected to hit it, or its curated case."""
    case_owner = {k.case: k.error_id for k in knowledge.values() if k.case}
    by_error: dict[str, list[Run]] = defaultdict(list)
    for run in runs:
        for error_id in {run.error_id, run.expected_error_id, case_owner.get(run.case_name)} - {None}:
            by_error[error_id].append(run)
    return by_error


def _cases_by_error(cases: Mapping[str, Case]) -> dict[str, str]:
    """Each error id a case names, to the first case (by name) naming it."""
    first: dict[str, str] = {}
    for name in sorted(cases):
        for error_id in cases[name].error_ids:
            first.setdefault(error_id, name)
    return first


def _case_for(error_id: str, entry: Knowledge | None, cases: Mapping[str, Case], cases_by_error: Mapping[str, str],
              runs: Iterable[Run]) -> Case | None:
    """The case whose trigger/fixed bodies are the card's before/after fix."""
    if entry and entry.case and entry.case in cases:
        return cases[entry.case]
    if error_id in cases_by_error:
        return cases[cases_by_error[error_id]]
    reproduced = sorted(r.case_name for r in runs if r.status == "reproduced" and r.error_id == error_id)
    return cases.get(reproduced[0]) if reproduced else None


def _status_rank(status: str) -> int:
    return STATUS_ORDER.index(status) if status in STATUS_ORDER else len(STATUS_ORDER)
