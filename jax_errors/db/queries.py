"""Read the catalogue: every query the CLI, the harness and the site generator need lives here."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TypeVar

from sqlalchemy import Engine, func, or_, select
from sqlalchemy.orm import Session

from jax_errors.db.models import (
    ConfirmedTrigger,
    Occurrence,
    OccurrenceSpan,
    ProbedCall,
    RaisedBy,
    RaisesAssert,
    RaiseSite,
    Reproduction,
    Snapshot,
    StaticLink,
    TriggerRun,
)
from jax_errors.exceptions import SnapshotNotFoundError

T = TypeVar("T")
# Kinds of rows that are no raise: the words a class or a function builds for raises elsewhere.
WORDING_KINDS = ("class_message", "function_message")
from jax_errors.snapshots import in_release_order, release_of, snapshot_label, version_key
from jax_errors.template import Template, Wording

CHUNK = 500


def chunks(values: Iterable[T], size: int = CHUNK) -> Iterator[list[T]]:
    """Sorted distinct values, a bounded number at a time (for `IN (...)` lists)."""
    ordered = sorted(set(values))  # type: ignore[type-var]
    for start in range(0, len(ordered), size):
        yield ordered[start:start + size]


@dataclass(frozen=True)
class SnapshotStats:
    label: str
    commit: str
    files: int
    sites: int
    messages: int
    complete: int
    parse_failures: int

    @property
    def complete_share(self) -> float:
        return self.complete / self.messages if self.messages else 0.0


@dataclass(frozen=True)
class LocatedSite:
    """A raise site where it stands in one snapshot."""

    error_id: str | None
    path: str
    site: RaiseSite
    snapshot: Snapshot


def find_snapshot(session: Session, label: str) -> Snapshot | None:
    """A crawled snapshot by tag, version, or (a prefix of) its commit."""
    return session.scalars(
        select(Snapshot).where(or_(
            Snapshot.tag == label, Snapshot.version == label,
            Snapshot.commit.startswith(label) if len(label) >= 7 else False,
        )).order_by(Snapshot.crawled_at.desc())
    ).first()


def require_snapshot(session: Session, label: str) -> Snapshot:
    """Like `find_snapshot`, but a label that names no crawled snapshot is an error."""
    snapshot = find_snapshot(session, label)
    if snapshot is None:
        raise SnapshotNotFoundError(label)
    return snapshot


def snapshot_stats(engine: Engine) -> list[SnapshotStats]:
    """Counts per crawled snapshot: releases by version, other commits after the release before them."""
    has_message = (RaiseSite.kind == "raise") & (RaiseSite.template != "")
    with Session(engine) as session:
        rows = session.execute(
            select(
                Snapshot.tag, Snapshot.version, Snapshot.commit, Snapshot.file_count, Snapshot.parse_failures,
                Snapshot.committed_at,
                func.count(Occurrence.span_id).filter(RaiseSite.kind.not_in(WORDING_KINDS)),
                func.count(Occurrence.span_id).filter(has_message),
                func.count(Occurrence.span_id).filter(has_message & RaiseSite.template_complete),
            )
            .join(Occurrence, Occurrence.snapshot_id == Snapshot.id, isouter=True)
            .join(RaiseSite, RaiseSite.id == Occurrence.site_id, isouter=True)
            .group_by(Snapshot.id)
            .order_by(Snapshot.committed_at, Snapshot.id)
        ).all()
    rows = in_release_order(list(rows), lambda row: release_of(row.version, row.tag), lambda row: row.committed_at)
    return [
        SnapshotStats(snapshot_label(tag, version, commit), commit, files, sites, messages, complete, failures)
        for tag, version, commit, files, failures, _date, sites, messages, complete in rows
    ]


def site_at(session: Session, snapshot: Snapshot, path: str, line: int) -> LocatedSite | None:
    """The raise site whose statement spans `path:line` in `snapshot` (innermost if nested)."""
    row = session.execute(
        select(Occurrence.error_id, Occurrence.path, RaiseSite)
        .join(RaiseSite, RaiseSite.id == Occurrence.site_id)
        .where(
            Occurrence.snapshot_id == snapshot.id, Occurrence.path == path,
            RaiseSite.lineno <= line, RaiseSite.end_lineno >= line, RaiseSite.kind.not_in(WORDING_KINDS),
        )
        .order_by(RaiseSite.lineno.desc())
    ).first()
    if row is None:
        return None
    error_id, found_path, site = row
    return LocatedSite(error_id, found_path, site, snapshot)


def sites_of_error(session: Session, error_id: str) -> list[LocatedSite]:
    """Every place an error id stands, newest snapshot first."""
    rows = session.execute(
        select(Occurrence.error_id, Occurrence.path, RaiseSite, Snapshot)
        .join(RaiseSite, RaiseSite.id == Occurrence.site_id)
        .join(Snapshot, Snapshot.id == Occurrence.snapshot_id)
        .where(Occurrence.error_id == error_id)
        .order_by(Snapshot.committed_at.desc(), Snapshot.id.desc())
    ).all()
    return [LocatedSite(eid, path, site, snap) for eid, path, site, snap in rows]


def snapshot_sites(session: Session, snapshot: Snapshot) -> list[LocatedSite]:
    """Every raise site of one snapshot, by path and line."""
    rows = session.execute(
        select(Occurrence.error_id, Occurrence.path, RaiseSite)
        .join(RaiseSite, RaiseSite.id == Occurrence.site_id)
        .where(Occurrence.snapshot_id == snapshot.id)
        .order_by(Occurrence.path, RaiseSite.lineno)
    ).all()
    return [LocatedSite(eid, path, site, snapshot) for eid, path, site in rows]


def reproductions_for_error(session: Session, error_id: str) -> list[Reproduction]:
    """Every recorded reproduction attributed to an error id, most recent run first."""
    return list(session.scalars(
        select(Reproduction).where(Reproduction.error_id == error_id)
        .order_by(Reproduction.ran_at.desc(), Reproduction.case_name)
    ))


def latest_reproductions(session: Session) -> list[Reproduction]:
    """The most recent run of every case (whatever jax version it ran on), by case name."""
    newest = (
        select(Reproduction.case_name, func.max(Reproduction.ran_at).label("ran_at"))
        .group_by(Reproduction.case_name).subquery()
    )
    return list(session.scalars(
        select(Reproduction)
        .join(newest, (Reproduction.case_name == newest.c.case_name) & (Reproduction.ran_at == newest.c.ran_at))
        .order_by(Reproduction.case_name)
    ))


def reproduction_of(session: Session, case_name: str, jax_version: str) -> Reproduction | None:
    """The recorded run of one case on one jax version."""
    return session.scalar(select(Reproduction).where(
        Reproduction.case_name == case_name, Reproduction.jax_version == jax_version))


def site_signatures(session: Session, snapshot: Snapshot, error_ids: Iterable[str]) -> dict[str, tuple]:
    """What each of `error_ids` raises in `snapshot` and where: path, lines, function, class, template, guard."""
    rows = session.execute(
        select(Occurrence.error_id, Occurrence.path, RaiseSite.lineno, RaiseSite.end_lineno, RaiseSite.qualname,
               RaiseSite.exc_expr, RaiseSite.template, RaiseSite.guard_kind, RaiseSite.guard)
        .join(RaiseSite, Occurrence.site_id == RaiseSite.id)
        .where(Occurrence.snapshot_id == snapshot.id, Occurrence.error_id.in_(list(error_ids)))
    )
    return {row[0]: tuple(row[1:]) for row in rows}


# The site generator reads the whole catalogue with these few bulk queries, never one per card.

@dataclass(frozen=True)
class PlacedSite:
    """One occurrence of an error id: which snapshot, which path, which raise site row."""

    error_id: str
    snapshot_id: int
    path: str
    site_id: int


def catalogue_occurrences(session: Session) -> list[PlacedSite]:
    """Every occurrence that has an error id (bare re-raises have none), in a stable order."""
    rows = session.execute(
        select(Occurrence.error_id, Occurrence.snapshot_id, Occurrence.path, Occurrence.site_id)
        .where(Occurrence.error_id.is_not(None))
        .order_by(Occurrence.error_id, Occurrence.snapshot_id, Occurrence.path, Occurrence.site_id)
    ).all()
    return [PlacedSite(*row) for row in rows]


def catalogue_sites(session: Session) -> dict[int, RaiseSite]:
    """Every raise site row that stands in some snapshot under an error id, by row id."""
    placed = select(OccurrenceSpan.site_id).where(OccurrenceSpan.error_id.is_not(None))  # in some snapshot, so
    return {site.id: site for site in session.scalars(select(RaiseSite).where(RaiseSite.id.in_(placed)))}


def all_reproductions(session: Session) -> list[Reproduction]:
    """Every recorded reproduction run, by case, jax version and run time."""
    return list(session.scalars(
        select(Reproduction).order_by(Reproduction.case_name, Reproduction.jax_version, Reproduction.ran_at)
    ))


def worded_messages(session: Session) -> dict[int, Wording]:
    """Per snapshot id, the messages its exception classes' __init__ and its module functions build, and the
    classes its functions make."""
    found: dict[int, list[tuple[str, str, Template]]] = {}
    for snapshot_id, path, made, parts in session.execute(
        select(Occurrence.snapshot_id, RaiseSite.exc_class, RaiseSite.exc_expr, RaiseSite.template_parts)
        .join(Occurrence, Occurrence.site_id == RaiseSite.id)
        .where(RaiseSite.kind.in_(WORDING_KINDS), RaiseSite.exc_class.is_not(None))
        .order_by(Occurrence.snapshot_id, Occurrence.path, RaiseSite.lineno)
    ):
        found.setdefault(snapshot_id, []).append((path, made, Template.from_json(parts)))
    return {snapshot_id: Wording.of_sites(sites) for snapshot_id, sites in found.items()}


def observed_messages(session: Session) -> dict[str, list[str]]:
    """Per error id, the messages it was seen raising: by a reproduction case, or caught by a JAX test."""
    found: dict[str, list[str]] = {}
    for error_id, message in session.execute(
        select(Reproduction.error_id, Reproduction.observed_message)
        .where(Reproduction.status == "reproduced", Reproduction.error_id.is_not(None),
               Reproduction.observed_message.is_not(None))
        .union_all(
            select(ConfirmedTrigger.error_id, ConfirmedTrigger.message)
            .where(ConfirmedTrigger.status == "confirmed", ConfirmedTrigger.error_id.is_not(None))
        )
    ):
        found.setdefault(error_id, []).append(message)
    return found


# Triggers mined from JAX's tests ------------------------------------------------------------

@dataclass(frozen=True)
class TriggeringTest:
    """A JAX test that makes an error raise, with the pattern its assert checks the message with."""

    node_id: str
    path: str
    line: int | None
    assert_kind: str | None
    pattern_kind: str | None
    pattern: str | None
    exc_class: str
    count: int
    commit: str
    jax_version: str  # the jax the test ran on
    error_id: str  # the id it caught there: an earlier one of the error's lineage, when it changed since


@dataclass(frozen=True)
class TriggerStats:
    """Counts of `jax-errors triggers stats`, for one commit of the tests (or all of them)."""

    asserts: int
    by_kind: dict[str, int]
    with_pattern: int
    linked: int
    files_run: int
    runs_by_status: dict[str, int]
    tests_run: int
    caught: int
    by_status: dict[str, int]
    asserts_confirmed: int
    sites_confirmed: int
    confirmed_with_link: int
    confirmed_top_link: int


def asserts_of_commit(session: Session, commit: str) -> list[RaisesAssert]:
    """Every mined assert of the tests at `commit`, by path and line."""
    return list(session.scalars(
        select(RaisesAssert).where(RaisesAssert.commit == commit)
        .order_by(RaisesAssert.path, RaisesAssert.lineno, RaisesAssert.col)
    ))


def triggers_for_error(session: Session, error_id: str) -> list[TriggeringTest]:
    """The JAX tests whose assert caught this error, raised at its site, by test node id."""
    return confirmed_triggers(session, error_id).get(error_id, [])


def confirmed_triggers(session: Session, error_id: str | None = None) -> dict[str, list[TriggeringTest]]:
    """Per error id (every one, or only `error_id`), the JAX tests whose assert caught it at its site.

    One query for the whole catalogue; each list is by test node id.
    """
    query = (
        select(ConfirmedTrigger, RaisesAssert, TriggerRun.commit, TriggerRun.jax_version)
        .join(TriggerRun, TriggerRun.id == ConfirmedTrigger.run_id)
        .join(RaisesAssert, RaisesAssert.id == ConfirmedTrigger.assert_id, isouter=True)
        .where(ConfirmedTrigger.status == "confirmed", ConfirmedTrigger.error_id.is_not(None))
        .order_by(ConfirmedTrigger.error_id, ConfirmedTrigger.node_id, ConfirmedTrigger.id)
    )
    if error_id is not None:
        query = query.where(ConfirmedTrigger.error_id == error_id)
    found: dict[str, list[TriggeringTest]] = {}
    for trigger, mined, commit, jax_version in session.execute(query):
        found.setdefault(trigger.error_id, []).append(TriggeringTest(
            trigger.node_id, mined.path if mined else trigger.node_id.partition("::")[0],
            mined.lineno if mined else trigger.test_line, mined.assert_kind if mined else None,
            mined.pattern_kind if mined else None, mined.pattern if mined else None,
            trigger.exc_class, trigger.count, commit, jax_version, trigger.error_id,
        ))
    return found


def probed_calls(session: Session) -> dict[str, list[ProbedCall]]:
    """Per error id, the probed calls that raised it, newest jax first."""
    found: dict[str, list[ProbedCall]] = {}
    for row in session.scalars(select(ProbedCall).order_by(ProbedCall.error_id)):
        found.setdefault(row.error_id, []).append(row)
    for rows in found.values():
        rows.sort(key=lambda row: version_key(row.jax_version), reverse=True)
    return found


def static_links_for_error(session: Session, error_id: str) -> list[tuple[RaisesAssert, float]]:
    """Mined asserts whose pattern was linked statically to this error, best score first."""
    return [(mined, score) for mined, score in session.execute(
        select(RaisesAssert, StaticLink.score).join(StaticLink, StaticLink.assert_id == RaisesAssert.id)
        .where(StaticLink.error_id == error_id)
        .order_by(StaticLink.score.desc(), RaisesAssert.path, RaisesAssert.lineno)
    )]


def static_link_counts(session: Session) -> dict[str, int]:
    """Per error id, how many mined asserts its template was linked to statically (by pattern alone)."""
    return dict(session.execute(
        select(StaticLink.error_id, func.count(func.distinct(StaticLink.assert_id)))
        .where(StaticLink.error_id.is_not(None)).group_by(StaticLink.error_id)
    ).all())


def trigger_stats(session: Session, commit: str | None = None) -> TriggerStats:
    """How many asserts were mined and linked, tests run, and raise sites confirmed by them."""
    asserts = select(RaisesAssert).where(RaisesAssert.commit == commit) if commit else select(RaisesAssert)
    mined = asserts.subquery()
    by_kind = dict(session.execute(
        select(mined.c.assert_kind, func.count()).group_by(mined.c.assert_kind).order_by(func.count().desc())
    ).all())
    with_pattern = session.scalar(select(func.count()).select_from(mined).where(mined.c.pattern.is_not(None)))
    linked = session.scalar(select(func.count(func.distinct(StaticLink.assert_id)))
                            .where(StaticLink.assert_id.in_(select(mined.c.id))))
    runs = select(TriggerRun).where(TriggerRun.commit == commit) if commit else select(TriggerRun)
    run = runs.subquery()
    runs_by_status = dict(session.execute(select(run.c.status, func.count()).group_by(run.c.status)).all())
    tests_run = session.scalar(select(func.coalesce(func.sum(run.c.passed + run.c.failed), 0)))
    caught = select(ConfirmedTrigger).where(ConfirmedTrigger.run_id.in_(select(run.c.id))).subquery()
    by_status = dict(session.execute(
        select(caught.c.status, func.sum(caught.c.count)).group_by(caught.c.status)).all())
    confirmed = select(caught).where(caught.c.status == "confirmed").subquery()
    linked_pairs = select(StaticLink.assert_id, StaticLink.error_id, StaticLink.rank).subquery()
    agreeing = select(confirmed.c.assert_id, linked_pairs.c.rank).join(
        linked_pairs, (linked_pairs.c.assert_id == confirmed.c.assert_id)
        & (linked_pairs.c.error_id == confirmed.c.error_id)).subquery()
    return TriggerStats(
        asserts=sum(by_kind.values()), by_kind=by_kind, with_pattern=with_pattern or 0, linked=linked or 0,
        files_run=sum(runs_by_status.values()), runs_by_status=runs_by_status, tests_run=tests_run or 0,
        caught=sum(by_status.values()), by_status=by_status,
        asserts_confirmed=session.scalar(select(func.count(func.distinct(confirmed.c.assert_id)))) or 0,
        sites_confirmed=session.scalar(select(func.count(func.distinct(confirmed.c.error_id)))) or 0,
        confirmed_with_link=session.scalar(select(func.count(func.distinct(agreeing.c.assert_id)))) or 0,
        confirmed_top_link=session.scalar(select(func.count(func.distinct(agreeing.c.assert_id)))
                                          .where(agreeing.c.rank == 0)) or 0,
    )


@dataclass(frozen=True)
class PublicCaller:
    """A public `jax.*` name whose calls reach a raising function (the crawl's call graph)."""

    name: str
    length: int  # calls from it to the raising function
    route: tuple[str, ...]  # module:qualname of each function on one shortest way


def public_callers(session: Session,
                   functions: Iterable[tuple[int, str, str]]) -> dict[tuple[int, str, str], list[PublicCaller]]:
    """By (snapshot, path, qualname) of a raising function, the public names reaching it, nearest first.

    Only the `functions` asked for are read: a catalogue of many snapshots stores a graph for each,
    and a card shows its error's newest function's alone.
    """
    wanted: dict[int, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for snapshot_id, path, qualname in functions:
        wanted[snapshot_id][path].add(qualname)
    found: dict[tuple[int, str, str], list[PublicCaller]] = {}
    # By snapshot and file, which the index leads to: a list of (snapshot, path, qualname) triples is
    # matched against every row, and each snapshot of the catalogue stores a graph.
    for snapshot_id, by_path in sorted(wanted.items()):
        for chunk in chunks(by_path):
            rows = session.execute(
                select(RaisedBy.path, RaisedBy.qualname, RaisedBy.entries)
                .where(RaisedBy.snapshot_id == snapshot_id, RaisedBy.path.in_(chunk)))
            for path, qualname, entries in rows:
                if qualname in by_path[path]:
                    found[(snapshot_id, path, qualname)] = [
                        PublicCaller(name, length, tuple(route)) for name, length, route in entries]
    return found
