"""Read the first-parent history (`crawl --history`): the exact commits that added, changed and removed each error.

An error's lineage on the line follows its `reworded` and `moved` events back from its id: the
ids it had before. Its presence is the union of the spans of those ids, so a rewording does not
break it; releases count where the commit they were made from lies inside that presence.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Row, Text, cast, select
from sqlalchemy.orm import Session

from jax_errors.db.models import ErrorSpan, HistoryCommit, HistoryEvent


@dataclass(frozen=True)
class LineCommit:
    """One commit of the history line."""

    position: int
    commit: str
    committed_at: datetime


@dataclass(frozen=True)
class CommitEvent:
    """What one commit did to an error of the lineage."""

    kind: str  # added, reworded, moved, removed
    at: LineCommit
    error_id: str
    previous_id: str | None
    path: str
    previous_path: str | None
    function: str
    previous_function: str | None
    words: str  # the message's skeleton after the commit (removed: before it)
    previous_words: str | None


@dataclass(frozen=True)
class Presence:
    """A run of commits raising the error: from `first` to `last` (None: to the newest), ended by `ended_by`."""

    first: LineCommit
    last: LineCommit | None
    ended_by: LineCommit | None  # the commit after `last`: the first that no longer raises it


@dataclass(frozen=True)
class CommitHistory:
    """An error's life along the first-parent history, commit by commit."""

    # The first commit crawled: an error present there came earlier. (Not the newest commit: a
    # card's history changes only when its error does, so a refresh rewrites only those pages.)
    began: LineCommit
    events: tuple[CommitEvent, ...]  # oldest first
    presence: tuple[Presence, ...]  # oldest first
    releases: tuple[str, ...]  # release tags made from a commit that raises it
    # The same as runs of consecutive releases of the line: (first, last, how many)
    release_runs: tuple[tuple[str, str, int], ...] = ()

    @property
    def present_at_start(self) -> bool:
        return self.presence[0].first.position == self.began.position

    @property
    def removed_at(self) -> LineCommit | None:
        """The commit that took the error out, if the newest commit no longer raises it."""
        return self.presence[-1].ended_by


@dataclass(frozen=True)
class LineRows:
    """The history line as read from the database: what `LineHistory` is made of (and a child may be handed)."""

    commits: list[tuple[int, str, datetime, list[str]]]  # position, commit, date, release tags
    spans: Sequence[Row]  # error id, first and last position
    events: Sequence[Row]  # every column of `HistoryEvent`, by position


# A commit's release tags as stored text: the few commits that have some are parsed, not every commit's.
RELEASES_TEXT = cast(HistoryCommit.releases, Text)


def releases_of(text: str | None) -> list[str]:
    """The release tags `RELEASES_TEXT` read."""
    return (json.loads(text) or []) if text and text != "[]" else []


def holds_history(session: Session) -> bool:
    """Whether the catalogue holds a first-parent history line (`crawl --history`)."""
    return session.scalar(select(HistoryCommit.position).limit(1)) is not None


def read_line(session: Session) -> LineRows:
    """The catalogue's history line, read in one go (empty when it has none)."""
    # Rows, not mapped objects: a full history holds tens of thousands of events, and they are only read.
    return LineRows(
        commits=[(position, commit, date, releases_of(tags)) for position, commit, date, tags in session.execute(
            select(HistoryCommit.position, HistoryCommit.commit, HistoryCommit.committed_at, RELEASES_TEXT))],
        spans=session.execute(select(ErrorSpan.error_id, ErrorSpan.first_position, ErrorSpan.last_position)).all(),
        events=session.execute(select(*(getattr(HistoryEvent, column.key) for column in HistoryEvent.__table__.columns))
                               .order_by(HistoryEvent.position, HistoryEvent.id)).all(),
    )


def commit_histories(rows: LineRows, error_ids: Iterable[str]) -> dict[str, CommitHistory]:
    """The history of each of `error_ids` that the line raised (`LineHistory.of`)."""
    line = LineHistory(rows)
    return {error_id: found for error_id in error_ids if (found := line.of(error_id)) is not None}


class LineHistory:
    """The whole history line of a catalogue, answering per error id."""

    def __init__(self, rows: LineRows) -> None:
        self.commits: dict[int, LineCommit] = {}
        self.releases: dict[int, list[str]] = {}
        for position, commit, committed_at, releases in rows.commits:
            self.commits[position] = LineCommit(position, commit, committed_at)
            if releases:
                self.releases[position] = list(releases)
        # Once for all: each error's history begins at the first commit and counts the releases in order.
        self.began: LineCommit | None = self.commits[min(self.commits)] if self.commits else None
        self.release_positions = sorted(self.releases)
        self.spans: dict[str, list[tuple[int, int | None]]] = defaultdict(list)
        for error_id, first, last in rows.spans:
            self.spans[error_id].append((first, last))
        self.events: dict[str, list[Row]] = defaultdict(list)
        self.earlier: dict[str, set[str]] = defaultdict(set)
        for event in rows.events:
            self.events[event.error_id].append(event)
            if event.previous_id is not None and event.previous_id != event.error_id:
                self.events[event.previous_id].append(event)
                self.earlier[event.error_id].add(event.previous_id)

    @classmethod
    def read(cls, session: Session) -> LineHistory:
        return cls(read_line(session))

    def lineage(self, error_id: str) -> list[str]:
        """The id and every id it had before on the line, following rewordings and moves back."""
        found, frontier = [error_id], [error_id]
        while frontier:
            frontier = [e for current in frontier for e in sorted(self.earlier.get(current, ())) if e not in found]
            found += frontier
        return found

    def of(self, error_id: str) -> CommitHistory | None:
        """The history of an error and its earlier ids; None when the line never raised it."""
        ids = self.lineage(error_id)
        spans = sorted((span for i in ids for span in self.spans.get(i, ())), key=_span_order)
        if not spans:
            return None
        presence = _merged(spans)
        releases = self._releases_at(presence)
        seen, events = set(), []
        for i in ids:
            for event in self.events.get(i, ()):
                if event.id not in seen:
                    seen.add(event.id)
                    events.append(event)
        events.sort(key=lambda e: (e.position, e.id))
        return CommitHistory(
            began=self.began,
            events=tuple(self._event(e) for e in events),
            presence=tuple(Presence(self.commits[first], None if last is None else self.commits[last],
                                    None if last is None else self.commits.get(last + 1))
                           for first, last in presence),
            releases=tuple(tag for tag, inside in releases if inside),
            release_runs=_runs(releases),
        )

    def _releases_at(self, presence: list[tuple[int, int | None]]) -> list[tuple[str, bool]]:
        """Each release tag of the line, oldest first, and whether its commit raises the error.

        One walk through the releases and the (sorted, disjoint) presence together.
        """
        found, spans = [], iter(presence)
        span = next(spans, None)
        for position in self.release_positions:
            while span is not None and span[1] is not None and span[1] < position:
                span = next(spans, None)
            inside = span is not None and span[0] <= position
            found += [(tag, inside) for tag in self.releases[position]]
        return found

    def _event(self, event: Row) -> CommitEvent:
        return CommitEvent(event.kind, self.commits[event.position], event.error_id, event.previous_id,
                           event.path, event.previous_path, event.function, event.previous_function,
                           event.template, event.previous_template)


def _merged(spans: Iterable[tuple[int, int | None]]) -> list[tuple[int, int | None]]:
    """Spans (sorted) joined where one ends just before the next begins: a rewording keeps the error present."""
    merged: list[tuple[int, int | None]] = []
    for first, last in spans:
        if merged:
            begun, until = merged[-1]
            if until is None or until + 1 >= first:
                merged[-1] = (begun, None if until is None or last is None else max(until, last))
                continue
        merged.append((first, last))
    return merged


def _span_order(span: tuple[int, int | None]) -> tuple[int, bool, int]:
    first, last = span
    return first, last is None, last or 0


def _runs(releases: list[tuple[str, bool]]) -> tuple[tuple[str, str, int], ...]:
    """Runs of consecutive releases that raise the error: (first, last, how many)."""
    runs: list[list] = []
    previous_inside = False
    for tag, inside in releases:
        if inside and previous_inside:
            runs[-1][1:] = [tag, runs[-1][2] + 1]
        elif inside:
            runs.append([tag, tag, 1])
        previous_inside = inside
    return tuple((first, last, count) for first, last, count in runs)
