"""Write what a crawl found: blobs and their raise sites, a snapshot's files, occurrences and counts.

A blob that an older extractor scanned is scanned again in place: its raise-site rows are updated
(a statement keeps its row id), so every snapshot that holds the blob, and the links, catches and
reproductions that point at its sites, follow the new reading instead of losing it.
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from sqlalchemy import and_, delete, func, insert, select, update
from sqlalchemy.orm import Session

from jax_errors.crawler.ids import base_ids, error_ids
from jax_errors.crawler.raise_sites import EXTRACTOR_VERSION, RaiseSite
from jax_errors.crawler.sources import is_package_source
from jax_errors.db.models import (
    Blob,
    ConfirmedTrigger,
    FileSpan,
    Occurrence,
    OccurrenceSpan,
    Reproduction,
    Snapshot,
    SnapshotFile,
    StaticLink,
)
from jax_errors.db.models import RaiseSite as RaiseSiteRow
from jax_errors.db.queries import WORDING_KINDS, chunks
from jax_errors.db.spans import place
from jax_errors.db.text import storable
from jax_errors.exceptions import SourceParseError


class PlacedFile(Protocol):
    """A file of a snapshot: a crawled `SourceFile`, or a stored `SnapshotFile`."""

    path: str
    blob_sha: str


@dataclass(frozen=True)
class BlobScan:
    """What the extractor found in one blob: its raise sites, or why it does not parse."""

    sha: str
    size: int
    sites: list[RaiseSite]
    error: SourceParseError | None
    path: str = ""  # where it was read; its call summary is of that path
    calls: dict[str, Any] | None = None  # `calls.summarize_tree`, read from the same parse


@dataclass(frozen=True)
class SnapshotCounts:
    files: int
    sites: int
    messages: int
    complete_templates: int
    parse_failures: list[SourceParseError] = field(default_factory=list)


def is_current(session: Session, snapshot: Snapshot) -> bool:
    """Whether every blob of the snapshot was scanned by this extractor version."""
    stale = session.scalar(
        select(SnapshotFile.span_id).join(Blob)
        .where(SnapshotFile.snapshot_id == snapshot.id, Blob.extractor_version != EXTRACTOR_VERSION)
        .limit(1)
    )
    return stale is None and snapshot.file_count > 0


def known_blobs(session: Session, shas: Iterable[str]) -> set[str]:
    """Which of these blobs this extractor version already scanned."""
    known: set[str] = set()
    for chunk in chunks(shas):
        known.update(session.scalars(
            select(Blob.sha).where(Blob.sha.in_(chunk), Blob.extractor_version == EXTRACTOR_VERSION)
        ))
    return known


def store_blob(session: Session, scan: BlobScan) -> bool:
    """Store one scanned blob and its raise sites; True when it replaced what an older extractor stored."""
    blob = session.get(Blob, scan.sha)
    rescanned = blob is not None
    if blob is None:
        blob = Blob(sha=scan.sha)
        session.add(blob)
    error = scan.error
    blob.size = scan.size
    blob.extractor_version = EXTRACTOR_VERSION
    blob.parse_error = storable(error.reason) if error else None
    blob.parse_error_line = error.lineno if error else None
    session.flush()
    rows = [_site_row(scan.sha, site, base) for site, base in zip(scan.sites, base_ids(scan.sites))]
    if rescanned:
        _replace_sites(session, scan.sha, rows)
    elif rows:
        session.execute(insert(RaiseSiteRow), rows)
    return rescanned


def _replace_sites(session: Session, sha: str, rows: list[dict]) -> None:
    """Update a re-scanned blob's site rows in place, matched by lines and kind; add and drop the rest."""
    free: dict[tuple, deque[int]] = defaultdict(deque)
    for site_id, *key in session.execute(
        select(RaiseSiteRow.id, RaiseSiteRow.lineno, RaiseSiteRow.end_lineno, RaiseSiteRow.kind)
        .where(RaiseSiteRow.blob_sha == sha).order_by(RaiseSiteRow.lineno, RaiseSiteRow.id)
    ):
        free[tuple(key)].append(site_id)
    updates, inserts = [], []
    for row in rows:
        ids = free.get((row["lineno"], row["end_lineno"], row["kind"]))
        if ids:
            updates.append({"id": ids.popleft(), **row})
        else:
            inserts.append(row)
    gone = [site_id for ids in free.values() for site_id in ids]
    if gone:
        session.execute(delete(RaiseSiteRow).where(RaiseSiteRow.id.in_(gone)))
    if updates:
        session.execute(update(RaiseSiteRow), updates)
    if inserts:
        session.execute(insert(RaiseSiteRow), inserts)


def _site_row(sha: str, site: RaiseSite, base_id: str | None) -> dict:
    return {
        "blob_sha": sha,
        "lineno": site.lineno,
        "end_lineno": site.end_lineno,
        "qualname": site.qualname,
        "kind": site.kind,
        "exc_class": site.exc_class,
        "exc_expr": site.exc_expr,
        "template": site.template.text,
        "template_parts": site.template.to_json(),
        "template_forms": sorted(site.template.forms),
        "template_complete": site.template.complete,
        "guard_kind": site.guard.kind if site.guard else None,
        "guard": site.guard.condition if site.guard else None,
        "cause": site.cause,
        "excerpt_start": site.excerpt_start,
        "excerpt": site.excerpt,
        "base_id": base_id,
    }


def store_files(session: Session, row: Snapshot, files: Sequence[PlacedFile]) -> None:
    place(session, FileSpan, row.id, ((f.path, f.blob_sha) for f in files))


def _sites_by_blob(session: Session, shas: Iterable[str]) -> dict[str, list[tuple[int, str | None]]]:
    by_blob: dict[str, list[tuple[int, str | None]]] = {}
    for chunk in chunks(shas):
        rows = session.execute(
            select(RaiseSiteRow.blob_sha, RaiseSiteRow.id, RaiseSiteRow.base_id)
            .where(RaiseSiteRow.blob_sha.in_(chunk))
            .order_by(RaiseSiteRow.blob_sha, RaiseSiteRow.lineno, RaiseSiteRow.id)
        )
        for sha, site_id, base in rows:
            by_blob.setdefault(sha, []).append((site_id, base))
    return by_blob


def store_occurrences(session: Session, row: Snapshot, files: Sequence[PlacedFile]) -> None:
    """Place every site of the snapshot's blobs at the file's path, with its snapshot-wide error id."""
    by_blob = _sites_by_blob(session, (f.blob_sha for f in files))
    placed = [(f.path, site_id, base) for f in files for site_id, base in by_blob.get(f.blob_sha, [])]
    ids = error_ids((path, base) for path, _site, base in placed)
    place(session, OccurrenceSpan, row.id, ((site_id, path, error_id)
                                            for (path, site_id, _base), error_id in zip(placed, ids)))


def count(session: Session, row: Snapshot) -> SnapshotCounts:
    """Count the stored snapshot's files, sites and rebuilt templates, and record them on its row."""
    stats = session.execute(
        select(RaiseSiteRow.kind, RaiseSiteRow.template_parts, RaiseSiteRow.template_complete)
        .join(Occurrence, Occurrence.site_id == RaiseSiteRow.id)
        .where(Occurrence.snapshot_id == row.id, RaiseSiteRow.kind.not_in(WORDING_KINDS))
    ).all()
    files = session.scalar(select(func.count()).select_from(SnapshotFile).where(SnapshotFile.snapshot_id == row.id))
    failures = session.execute(
        select(SnapshotFile.path, Blob.parse_error, Blob.parse_error_line).join(Blob)
        .where(SnapshotFile.snapshot_id == row.id, Blob.parse_error.is_not(None))
    ).all()
    row.file_count, row.site_count, row.parse_failures = files, len(stats), len(failures)
    return SnapshotCounts(
        files=files,
        sites=len(stats),
        messages=sum(1 for kind, parts, _ in stats if kind == "raise" and parts),
        complete_templates=sum(1 for kind, parts, ok in stats if kind == "raise" and parts and ok),
        parse_failures=[SourceParseError(path, line, reason, commit=row.commit) for path, reason, line in failures],
    )


def follow_rescanned_blobs(session: Session, shas: Iterable[str], *, crawled: Snapshot) -> None:
    """After blobs were scanned again, bring every other snapshot holding them, and what points at their sites, up to date.

    Their occurrences are placed again (error ids may move where a template now reads differently),
    their counts redone; static links, confirmed catches and reproductions take the error id that
    their site now has in their snapshot. Their other blobs keep the older reading until they are
    crawled again: `crawl` sees them as stale.
    """
    shas = list(shas)
    holders: set[int] = set()
    for chunk in chunks(shas):
        holders.update(session.scalars(
            select(SnapshotFile.snapshot_id).where(SnapshotFile.blob_sha.in_(chunk), SnapshotFile.snapshot_id != crawled.id)
        ))
    for snapshot in session.scalars(select(Snapshot).where(Snapshot.id.in_(holders)).order_by(Snapshot.id)):
        files = list(session.scalars(select(SnapshotFile).where(SnapshotFile.snapshot_id == snapshot.id)))
        kept = [f for f in files if is_package_source(f.path)]  # test code left out since it was placed
        if len(kept) != len(files):
            store_files(session, snapshot, kept)
        store_occurrences(session, snapshot, kept)
        count(session, snapshot)
    for chunk in chunks(shas):
        _follow_error_ids(session, select(RaiseSiteRow.id).where(RaiseSiteRow.blob_sha.in_(chunk)))


def _follow_error_ids(session: Session, site_ids) -> None:
    for model in (StaticLink, ConfirmedTrigger):
        now = select(Occurrence.error_id).where(
            Occurrence.snapshot_id == model.snapshot_id, Occurrence.site_id == model.site_id).scalar_subquery()
        session.execute(update(model).where(model.site_id.in_(site_ids), model.snapshot_id.is_not(None))
                        .values(error_id=now).execution_options(synchronize_session=False))
    located = (select(Occurrence.error_id).join(RaiseSiteRow, RaiseSiteRow.id == Occurrence.site_id)
               .where(Occurrence.snapshot_id == Reproduction.snapshot_id, Occurrence.path == Reproduction.path,
                      RaiseSiteRow.lineno == Reproduction.lineno, RaiseSiteRow.id.in_(site_ids)))
    session.execute(update(Reproduction).where(and_(Reproduction.snapshot_id.is_not(None), located.exists()))
                    .values(error_id=located.limit(1).scalar_subquery())
                    .execution_options(synchronize_session=False))
