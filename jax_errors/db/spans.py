"""Write what a snapshot holds as spans: a row changes only where the content of a file or a raise does.

A span holds one content (a path's blob, or a raise site at a path with its error id) in every
snapshot from `first_snapshot` to `last_snapshot`, in snapshot id order; `last_snapshot` None
runs to the newest snapshot. Placing a snapshot's content touches only the spans whose content
it lacks or adds: a crawl that changes ten files writes a few dozen rows, not thousands.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import delete, func, insert, or_, select, update
from sqlalchemy.orm import Session

from jax_errors.db.models import FileSpan, OccurrenceSpan, Snapshot

SpanModel = type[FileSpan] | type[OccurrenceSpan]
# The columns that make a span's content, per model.
CONTENT = {FileSpan: ("path", "blob_sha"), OccurrenceSpan: ("site_id", "path", "error_id")}


@dataclass
class _Span:
    id: int
    content: tuple
    first: int
    last: int | None


def place(session: Session, model: SpanModel, snapshot_id: int, contents: Iterable[tuple]) -> None:
    """Make `contents` (tuples of the model's CONTENT columns) what snapshot `snapshot_id` holds.

    The snapshot's row must be flushed. Its neighbours (the snapshots just before and after it by
    id) keep what they hold: spans over it are cut or joined around it.
    """
    wanted = set(contents)
    before = _neighbour(session, snapshot_id, before=True)
    after = _neighbour(session, snapshot_id, before=False)
    spans = _spans(session, model, or_(
        (model.first_snapshot <= snapshot_id) & or_(model.last_snapshot.is_(None), model.last_snapshot >= snapshot_id),
        model.last_snapshot == before if before is not None else False,
        model.first_snapshot == after if after is not None else False,
    ))
    holding = [s for s in spans if s.first <= snapshot_id and (s.last is None or s.last >= snapshot_id)]
    ending = {s.content: s for s in spans if before is not None and s.last == before}
    starting = {s.content: s for s in spans if after is not None and s.first == after}
    changes = _Changes()
    for span in holding:
        if span.content not in wanted:
            _cut(changes, span, snapshot_id, before, after)
    held = {s.content for s in holding}
    for content in sorted(wanted - held, key=repr):
        _join(changes, content, snapshot_id, ending.get(content), starting.get(content), newest=after is None)
    changes.write(session, model)


def _neighbour(session: Session, snapshot_id: int, *, before: bool) -> int | None:
    if before:
        return session.scalar(select(func.max(Snapshot.id)).where(Snapshot.id < snapshot_id))
    return session.scalar(select(func.min(Snapshot.id)).where(Snapshot.id > snapshot_id))


def _spans(session: Session, model: SpanModel, condition) -> list[_Span]:
    columns = [getattr(model, name) for name in CONTENT[model]]
    return [
        _Span(span_id, tuple(content), first, last)
        for span_id, first, last, *content in session.execute(
            select(model.id, model.first_snapshot, model.last_snapshot, *columns).where(condition))
    ]


class _Changes:
    """The span rows to update, insert and delete, written in bulk."""

    def __init__(self) -> None:
        self.updates: dict[int, dict] = {}
        self.inserts: list[dict] = []
        self.deletes: set[int] = set()

    def update(self, span: _Span, **values) -> None:
        self.updates.setdefault(span.id, {"id": span.id}).update(values)

    def insert(self, content: tuple, first: int, last: int | None) -> None:
        self.inserts.append({"content": content, "first_snapshot": first, "last_snapshot": last})

    def write(self, session: Session, model: SpanModel) -> None:
        names = CONTENT[model]
        if self.deletes:
            session.execute(delete(model).where(model.id.in_(sorted(self.deletes))))
        updates = [values for span_id, values in sorted(self.updates.items()) if span_id not in self.deletes]
        if updates:
            session.execute(update(model), updates)
        if self.inserts:
            session.execute(insert(model), [
                {**dict(zip(names, row["content"])), "first_snapshot": row["first_snapshot"],
                 "last_snapshot": row["last_snapshot"]}
                for row in self.inserts
            ])


def _cut(changes: _Changes, span: _Span, snapshot_id: int, before: int | None, after: int | None) -> None:
    """Take `snapshot_id` out of a span that holds it."""
    starts_here, ends_here = span.first == snapshot_id, span.last == snapshot_id or (span.last is None and after is None)
    if starts_here and ends_here:
        changes.deletes.add(span.id)
    elif starts_here:
        changes.update(span, first_snapshot=after)
    elif ends_here:
        changes.update(span, last_snapshot=before)
    else:
        changes.update(span, last_snapshot=before)
        changes.insert(span.content, after, span.last)


def _join(changes: _Changes, content: tuple, snapshot_id: int, ending: _Span | None, starting: _Span | None, *,
          newest: bool) -> None:
    """Put `snapshot_id` into the span of `content` just before it, or just after it, or a new one."""
    if ending is not None and starting is not None:
        changes.update(ending, last_snapshot=starting.last)
        changes.deletes.add(starting.id)
    elif ending is not None:
        changes.update(ending, last_snapshot=None if newest else snapshot_id)
    elif starting is not None:
        changes.update(starting, first_snapshot=snapshot_id)
    else:
        changes.insert(content, snapshot_id, None if newest else snapshot_id)
