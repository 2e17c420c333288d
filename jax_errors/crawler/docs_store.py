"""Store the passages of JAX's docs a snapshot holds: each once, linked to the snapshots holding it; read them back."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sqlalchemy import delete, exists, insert, select
from sqlalchemy.orm import Session

from jax_errors.crawler.docs import DocPassage as Passage
from jax_errors.db.models import DocPassage, Snapshot, SnapshotDocPassage, SnapshotDocs
from jax_errors.db.queries import chunks

# Which reading of the docs a snapshot's passages come from: a new one makes crawls read them again.
DOCS_READER = "1"


def has_docs(session: Session, snapshot: Snapshot) -> bool:
    """Whether the stored snapshot's docs were read by this version of the reader."""
    return session.scalar(select(SnapshotDocs.version).where(SnapshotDocs.snapshot_id == snapshot.id)) == DOCS_READER


def store_docs(session: Session, snapshot: Snapshot, passages: Sequence[Passage], *, pages: int) -> None:
    """Record the passages `snapshot` holds, storing those no snapshot held before.

    Passages no snapshot holds any more (after a re-crawl, or a snapshot deleted) are deleted.
    """
    by_digest: dict[str, Passage] = {}
    for passage in passages:
        by_digest.setdefault(passage.digest, passage)  # the same words twice in one section: the first
    known = _stored_ids(session, by_digest)
    new = [by_digest[d] for d in sorted(by_digest) if d not in known]
    if new:
        session.execute(insert(DocPassage), [
            {"digest": p.digest, "path": p.path, "heading": p.heading, "url": p.url, "kind": p.kind, "text": p.text}
            for p in new])
        known.update(_stored_ids(session, [p.digest for p in new]))
    session.execute(delete(SnapshotDocPassage).where(SnapshotDocPassage.snapshot_id == snapshot.id))
    if by_digest:
        session.execute(insert(SnapshotDocPassage), [
            {"snapshot_id": snapshot.id, "passage_id": known[d], "line": p.line, "position": p.position}
            for d, p in sorted(by_digest.items())])
    session.execute(delete(DocPassage).where(~exists().where(SnapshotDocPassage.passage_id == DocPassage.id)))
    session.merge(SnapshotDocs(snapshot_id=snapshot.id, version=DOCS_READER, pages=pages, passages=len(by_digest)))


def _stored_ids(session: Session, digests: Iterable[str]) -> dict[str, int]:
    found: dict[str, int] = {}
    for batch in chunks(digests):
        found.update(session.execute(select(DocPassage.digest, DocPassage.id).where(DocPassage.digest.in_(batch))).all())
    return found


def newest_passages(session: Session, newest_first: Sequence[int]) -> list[Passage]:
    """The passages a catalogue shows: the pages of the newest snapshot that has docs pages (a git commit),
    and the docstrings of the newest snapshot of all. `newest_first` are snapshot ids, newest first."""
    read = dict(session.execute(select(SnapshotDocs.snapshot_id, SnapshotDocs.pages)).all())
    with_pages = next((i for i in newest_first if read.get(i)), None)
    with_docstrings = next((i for i in newest_first if i in read), None)
    passages = []
    for snapshot_id, docstrings in ((with_pages, False), (with_docstrings, True)):
        if snapshot_id is None:
            continue
        rows = session.execute(select(DocPassage, SnapshotDocPassage.line, SnapshotDocPassage.position).join(
            SnapshotDocPassage).where(SnapshotDocPassage.snapshot_id == snapshot_id).order_by(
            DocPassage.path, SnapshotDocPassage.position))
        passages.extend(Passage(r.path, line, r.heading, r.url, r.kind, r.text, position)
                        for r, line, position in rows if (r.kind == "docstring") == docstrings)
    return passages
