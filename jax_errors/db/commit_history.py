"""Read the first-parent history (`crawl --history`): the exact commits that added, changed and removed each error.

An error's lineage on the line follows its `reworded` and `moved` events back from its id: the
ids it had before. Its presence is the union of the spans of those ids, so a rewording does not
break it; releases count where the commit they were made from lies inside that presence.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
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


class LineHistory:
    """The whole history line of a catalogue, read once, answering per error id."""

    def __init__(self, session: Session) -> None:
        self.commits: dict[int, LineCommit] = {}
        self.releases: dict[int, list[str]] = {}
        for position, commit, committed_at, releases in session.execute(select(
                HistoryCommit.position, HistoryCommit.commit, HistoryCommit.committed_at, HistoryCommit.releases)):
            self.commits[position] = LineCommit(position, commit, committed_at)
            if releases:
                self.releases[position] = list(releases)
        self.spans: dict[str, list[tuple[int, int | None]]] = defaultdict(list)
        for error_id, first, last in session.execute(
                select(ErrorSpan.error_id, ErrorSpan.first_position, ErrorSpan.last_position)):
            self.spans[error_id].append((first, last))
        self.events: dict[str, list[HistoryEvent]] = defaultdict(list)
        self.earlier: dict[str, set[str]] = defaultdict(set)
        for event in session.scalars(select(HistoryEvent).order_by(HistoryEvent.position, HistoryEvent.id)):
            session.expunge(event)
            self.events[event.error_id].append(event)
            if event.previous_id is not None and event.previous_id != event.error_id:
                self.events[event.previous_id].append(event)
                self.earlier[event.error_id].add(event.previous_id)

    def __bool__(self) -> bool:
        return bool(self.commits)

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
        seen, events = set(), []
        for i in ids:
            for event in self.events.get(i, ()):
                if event.id not in seen:
                    seen.add(event.id)
                    events.append(event)
        events.sort(key=lambda e: (e.position, e.id))
        return CommitHistory(
            began=self.commits[min(self.commits)],
            events=tuple(self._event(e) for e in events),
            presence=tuple(Presence(self.commits[first], None if last is None else self.commits[last],
                                    None if last is None else self.commits.get(last + 1))
                           for first, last in presence),
            releases=tuple(tag for position in sorted(self.releases) if _inside(position, presence)
                           for tag in self.releases[position]),
            release_runs=self._release_runs(presence),
        )

    def _release_runs(self, presence: list[tuple[int, int | None]]) -> tuple[tuple[str, str, int], ...]:
        runs: list[list] = []
        previous_inside = False
        for position in sorted(self.releases):
            inside = _inside(position, presence)
            for tag in self.releases[position]:
                if inside and previous_inside:
                    runs[-1][1:] = [tag, runs[-1][2] + 1]
                elif inside:
                    runs.append([tag, tag, 1])
                previous_inside = inside
        return tuple((first, last, count) for first, last, count in runs)

    def _event(self, event: HistoryEvent) -> CommitEvent:
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


def _inside(position: int, presence: Iterable[tuple[int, int | None]]) -> bool:
    return any(first <= position and (last is None or position <= last) for first, last in presence)
