"""Store the passages of JAX's docs a snapshot holds: each once, linked to the snapshots holding it; read them back."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sqlalchemy import Select, delete, exists, insert, literal, select
from sqlalchemy.orm import Session

from jax_errors.crawler.docs import DocPassage as Passage
from jax_errors.db.models import DocPassage, Snapshot, SnapshotDocPassage, SnapshotDocs
from jax_errors.db.queries import chunks

# Which reading of the docs a snapshot's passages come from: a new one makes crawls read them again.
DOCS_READER = "1"


def has_docs(session: Session, snapshot: Snapshot) -> bool:
    """Whether the stored snapshot's docs were read by this version of the reader."""
    return session.scalar(select(SnapshotDocs.version).where(SnapshotDocs.snapshot_id == snapshot.id)) == DOCS_READER


def read_alike(session: Session, digest: str) -> int | None:
    """A snapshot whose docs this reader read from the same files (`docs.docs_digest`), if one is stored."""
    return session.scalar(select(SnapshotDocs.snapshot_id).where(
        SnapshotDocs.source_digest == digest, SnapshotDocs.version == DOCS_READER).limit(1))


def copy_docs(session: Session, snapshot: Snapshot, alike: int) -> bool:
    """Give `snapshot` the passages of `alike`, read from the same files; False if `alike` is gone meanwhile."""
    source = session.get(SnapshotDocs, alike)
    if source is None or source.version != DOCS_READER:
        return False
    _link(session, snapshot, select(literal(snapshot.id), SnapshotDocPassage.passage_id, SnapshotDocPassage.line,
                                    SnapshotDocPassage.position).where(SnapshotDocPassage.snapshot_id == alike))
    session.merge(SnapshotDocs(snapshot_id=snapshot.id, version=DOCS_READER, pages=source.pages,
                               passages=source.passages, source_digest=source.source_digest))
    return True


def store_docs(session: Session, snapshot: Snapshot, passages: Sequence[Passage], *, pages: int,
               digest: str | None = None) -> None:
    """Record the passages `snapshot` holds, read from the files `digest` names, storing those no snapshot held before.

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
    _link(session, snapshot, [(known[d], p.line, p.position) for d, p in sorted(by_digest.items())])
    session.merge(SnapshotDocs(snapshot_id=snapshot.id, version=DOCS_READER, pages=pages, passages=len(by_digest),
                               source_digest=digest))


def _link(session: Session, snapshot: Snapshot, links: Sequence[tuple[int, int, int]] | Select) -> None:
    """Make (passage id, line, position) `links` the passages `snapshot` holds; drop those no snapshot holds any more.

    `links` may be a query of (snapshot id, passage id, line, position) rows, copied in the database.
    """
    session.execute(delete(SnapshotDocPassage).where(SnapshotDocPassage.snapshot_id == snapshot.id))
    if isinstance(links, Select):
        session.execute(insert(SnapshotDocPassage).from_select(
            ["snapshot_id", "passage_id", "line", "position"], links))
    elif links:
        session.execute(insert(SnapshotDocPassage), [
            {"snapshot_id": snapshot.id, "passage_id": passage, "line": line, "position": position}
            for passage, line, position in links])
    session.execute(delete(DocPassage).where(~exists().where(SnapshotDocPassage.passage_id == DocPassage.id)))


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
