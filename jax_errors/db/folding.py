"""Fold commit snapshots into the history line once nothing cites them (`refresh --fold-commit-snapshots`).

A snapshot is every file and raise site at one commit. Each one more makes every build, lookup index
and `stats` read the catalogue's sites once more, so a catalogue refreshed at each commit (`refresh`
crawls the newest as a snapshot) would grow slower with every commit. A catalogue with a first-parent
history (`crawl --history`) records each commit's changes to each error in the line already; folding
keeps as snapshots only those of its untagged commits that its cards cite:

- the newest;
- where the current reading of a live error begins: a card cites that commit for its place, line and
  source, so a refresh that left the error alone leaves the card alone.

The others are folded: removed, with what only they held (their call graph and docs passages).
Releases (a tag or a version, or a tag the line records) and commits off the line are never folded, nor
is a snapshot that evidence was filed under (asserts' links, caught tests, reproduction runs). A card's
runs of snapshots then join the kept ones around a folded commit, and its first crawled snapshot may be
a later one; the exact commits that introduced and changed the error stay in the line ("Commit by
commit"). Nor is one that holds an error no other snapshot holds (raised for a few commits between two
refreshes, say): every error keeps its card. Folding is asked for (`refresh --fold-commit-snapshots`), for
a catalogue refreshed at each commit. Spans of sites and files are ranges of snapshot ids, so the
snapshots around a folded one keep what they hold; spans left holding no snapshot go. A process that
works on a commit snapshot over several transactions (`reproduce --tree`, `triggers mine`) should not
run beside a folding refresh.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import defaultdict
from collections.abc import Callable

from sqlalchemy import Engine, delete, exists, or_, select
from sqlalchemy.orm import Session

from jax_errors.db.commit_history import RELEASES_TEXT, releases_of
from jax_errors.db.engine import begin_writing
from jax_errors.db.history import ordered_snapshots
from jax_errors.db.models import (
    ConfirmedTrigger,
    FileSpan,
    HistoryCommit,
    Occurrence,
    OccurrenceSpan,
    RaiseSite,
    Reproduction,
    Snapshot,
    StaticLink,
)
from jax_errors.db.queries import chunks


def foldable(session: Session) -> list[Snapshot]:
    """The snapshots of untagged commits of the history line that nothing cites (`cited`), oldest first.

    A commit tagged after its snapshot was crawled is a release too: the line knows its tags. A snapshot
    that evidence was filed under (links of JAX's asserts, caught tests, reproductions) stays with it.
    """
    on_line = session.execute(
        select(Snapshot, RELEASES_TEXT).join(HistoryCommit, HistoryCommit.commit == Snapshot.commit)
        .where(Snapshot.origin == "git").order_by(HistoryCommit.position)).all()
    filed = {snapshot_id for model in (StaticLink, ConfirmedTrigger, Reproduction)
             for snapshot_id in session.scalars(select(model.snapshot_id).distinct())}
    candidates = [row for row, tags in on_line[:-1]
                  if row.release is None and not releases_of(tags) and row.id not in filed]
    ordered = ordered_snapshots(session) if candidates else []
    candidates = [row for row in candidates if row.id != ordered[-1].id]  # the newest stays, by date too
    if not candidates:
        return []
    live = set(session.scalars(select(Occurrence.error_id).where(
        Occurrence.snapshot_id == ordered[-1].id, Occurrence.error_id.is_not(None))))
    kept = cited(session, candidates, ordered, live)
    kept |= sole_holders(session, [row for row in candidates if row.id not in kept], live)
    return [row for row in candidates if row.id not in kept]


def sole_holders(session: Session, among: list[Snapshot], live: set[str]) -> set[int]:
    """Those of `among` to keep so that every error they hold is still held by a snapshot: one for each error
    that no snapshot outside `among` holds (the newest holding it), or folding would take its card.

    `live`: the errors the newest snapshot (never one of `among`) raises, held whatever is folded. An error
    raised for a few commits between two refreshes, say, keeps one of them.
    """
    if not among:
        return set()
    ids = {row.id for row in among}
    holders: dict[str, set[int]] = defaultdict(set)
    for chunk in chunks(sorted(ids)):
        for error_id, snapshot_id in session.execute(
                select(Occurrence.error_id, Occurrence.snapshot_id)
                .where(Occurrence.snapshot_id.in_(chunk), Occurrence.error_id.is_not(None))):
            holders[error_id].add(snapshot_id)
    others = sorted(set(session.scalars(select(Snapshot.id))) - ids)
    covered = holders.keys() & live  # most are: the spans of the others alone are read
    for chunk in chunks(sorted(holders.keys() - covered)):
        for error_id, first, last in session.execute(
                select(OccurrenceSpan.error_id, OccurrenceSpan.first_snapshot, OccurrenceSpan.last_snapshot)
                .where(OccurrenceSpan.error_id.in_(chunk))):
            at = bisect_left(others, first)  # the first snapshot outside `among` from the span's first on
            if at < len(others) and (last is None or others[at] <= last):
                covered.add(error_id)
    kept: set[int] = set()
    for error_id in sorted(holders.keys() - covered):
        if not holders[error_id] & kept:
            kept.add(max(holders[error_id]))
    return kept


def cited(session: Session, among: list[Snapshot], ordered: list[Snapshot], live: set[str]) -> set[int]:
    """Those of `among` that the cards of `live` errors (those the newest of the `ordered` snapshots raises)
    cite: where a run of equal readings that reaches the newest snapshot begins.

    Only the snapshots from the one before the oldest of `among` on are read: a catalogue of every
    release keeps its releases, and its commits come after them.
    """
    rank = {row.id: n for n, row in enumerate(ordered)}
    newest = len(ordered) - 1
    lowest = min(rank[row.id] for row in among)
    window = [row.id for row in ordered[max(lowest - 1, 0):]]
    held: dict[tuple[str, str], dict[int, int]] = defaultdict(dict)  # (error id, path) -> rank -> site id
    for chunk in chunks(live):
        for error_id, snapshot_id, path, site_id in session.execute(
                select(Occurrence.error_id, Occurrence.snapshot_id, Occurrence.path, Occurrence.site_id)
                .where(Occurrence.error_id.in_(chunk), Occurrence.snapshot_id.in_(window))):
            held[(error_id, path)][rank[snapshot_id]] = site_id
    # One site row reads the same everywhere: only sites of places that changed row are read, to compare.
    changed = {site for sites in held.values() if len(set(sites.values())) > 1 for site in sites.values()}
    reading = {}
    for chunk in chunks(changed):
        for site_id, *read in session.execute(select(RaiseSite.id, *(getattr(RaiseSite, column)
                                                                    for column in RaiseSite.READING))
                                              .where(RaiseSite.id.in_(chunk))):
            reading[site_id] = tuple(read)
    begins_at = set()
    for sites in held.values():
        if newest in sites:
            begins = newest
            while begins - 1 in sites and (sites[begins - 1] == sites[begins]
                                           or reading[sites[begins - 1]] == reading[sites[begins]]):
                begins -= 1
            begins_at.add(ordered[begins].id)
    return begins_at & {row.id for row in among}


def fold_into_history(engine: Engine, *, waiting: Callable[[], None] | None = None) -> list[str]:
    """Fold the `foldable` snapshots in one transaction; the commits folded."""
    with Session(engine) as session, session.begin():
        begin_writing(session, waiting=waiting)
        rows = foldable(session)
        if not rows:
            return []
        folded = [row.commit for row in rows]
        for chunk in chunks([row.id for row in rows]):
            session.execute(delete(Snapshot).where(Snapshot.id.in_(chunk)))  # with what references it
        for model in (OccurrenceSpan, FileSpan):
            holds_one = select(Snapshot.id).where(
                Snapshot.id >= model.first_snapshot,
                or_(model.last_snapshot.is_(None), Snapshot.id <= model.last_snapshot))
            session.execute(delete(model).where(~exists(holds_one)))
    return folded
