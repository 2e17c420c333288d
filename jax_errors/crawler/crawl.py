"""Crawl one pinned JAX snapshot into the catalogue: content-addressed, one transaction per commit."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime

from sqlalchemy import Engine, delete, insert, select
from sqlalchemy.orm import Session

from jax_errors.crawler.ids import base_ids, error_ids
from jax_errors.crawler.raise_sites import EXTRACTOR_VERSION, RaiseSite, extract_raise_sites
from jax_errors.crawler.repository import JaxRepository
from jax_errors.crawler.sources import SourceFile, SourceSnapshot
from jax_errors.db.models import Blob, Occurrence, Snapshot, SnapshotFile
from jax_errors.db.models import RaiseSite as RaiseSiteRow
from jax_errors.exceptions import SourceParseError
from jax_errors.progress import Progress

# Below this many new blobs a process pool costs more than it saves.
POOL_THRESHOLD = int(os.environ.get("JAX_ERRORS_POOL_THRESHOLD", "64"))
CHUNK = 500


@dataclass
class CrawlReport:
    """What one crawl did."""

    label: str
    commit: str
    files: int = 0
    sites: int = 0
    messages: int = 0
    complete_templates: int = 0
    parsed: int = 0
    reused: int = 0
    skipped: bool = False
    parse_failures: list[SourceParseError] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def complete_share(self) -> float:
        return self.complete_templates / self.messages if self.messages else 0.0

    def summary(self) -> str:
        if self.skipped:
            return f"{self.label} ({self.commit[:10]}): already crawled"
        failures = f", {len(self.parse_failures)} files that do not parse" if self.parse_failures else ""
        return (
            f"{self.label} ({self.commit[:10]}): {self.files} files, {self.sites} raise sites, "
            f"{self.complete_share:.1%} of messages fully rebuilt; parsed {self.parsed} new blobs, "
            f"reused {self.reused}{failures}; {self.seconds:.1f} s"
        )


@dataclass(frozen=True)
class _Scan:
    sha: str
    size: int
    sites: list[RaiseSite]
    error: SourceParseError | None


def crawl_snapshot(
    engine: Engine, snapshot: SourceSnapshot, *, force: bool = False, jobs: int = 1,
    progress: Progress | None = None,
) -> CrawlReport:
    """Store the raise sites of every file of `snapshot`, parsing only blobs never scanned before.

    The whole snapshot is written in one transaction: an interrupted crawl leaves nothing behind.
    Files that do not parse are recorded with the reason, and the crawl goes on.
    """
    started = time.perf_counter()
    report = CrawlReport(snapshot.label, snapshot.commit)
    with Session(engine) as session, session.begin():
        existing = session.scalar(select(Snapshot).where(Snapshot.commit == snapshot.commit))
        if existing is not None and not force and existing.origin == snapshot.origin \
                and _is_current(session, existing):
            _update_pins(existing, snapshot)
            report.skipped = True
            return report
        shas = {f.blob_sha for f in snapshot.files}
        known = _known_blobs(session, shas)
        todo = _unique_by_blob(f for f in snapshot.files if f.blob_sha not in known)
        report.reused = len(snapshot.files) - len(todo)
        for scan in _scan_all(todo, jobs=jobs, progress=progress, done=report.reused, total=len(snapshot.files)):
            _store_blob(session, scan)
            report.parsed += 1
        row = existing or Snapshot(commit=snapshot.commit)
        if existing is None:
            session.add(row)
        _update_pins(row, snapshot)
        session.flush()
        _store_files(session, row, snapshot.files)
        _store_occurrences(session, row, snapshot.files)
        _count(session, row, snapshot.files, report)
    report.seconds = time.perf_counter() - started
    return report


def ensure_crawled(engine: Engine, commit: str, load: Callable[[], SourceSnapshot] | None, *, jobs: int = 1,
                   progress: Progress | None = None) -> int | None:
    """The id of the snapshot of `commit`, crawling `load()` first when the database lacks it.

    Returns None when there is no such snapshot and no `load`, or `load` gave another commit.
    """
    found = _snapshot_id(engine, commit)
    if found is None and load is not None:
        crawl_snapshot(engine, load(), jobs=jobs, progress=progress)
        found = _snapshot_id(engine, commit)
    return found


def _snapshot_id(engine: Engine, commit: str) -> int | None:
    with Session(engine) as session:
        return session.scalar(select(Snapshot.id).where(Snapshot.commit == commit))


def date_undated_snapshots(engine: Engine, repository: JaxRepository) -> int:
    """Date the snapshots with no commit date (installed wheels) whose commit `repository` holds.

    A wheel records its commit but not when it was made; with the date, history orders it among
    the commits crawled from git instead of guessing from version numbers. Returns how many it dated.
    """
    dated = 0
    with Session(engine) as session, session.begin():
        for row in session.scalars(select(Snapshot).where(Snapshot.committed_at.is_(None))):
            when = repository.commit_date(row.commit)
            if when is not None:
                row.committed_at = when.astimezone(UTC).replace(tzinfo=None)
                dated += 1
    return dated


def _is_current(session: Session, snapshot: Snapshot) -> bool:
    """Whether every blob of the snapshot was scanned by this extractor version."""
    stale = session.scalar(
        select(SnapshotFile.id).join(Blob)
        .where(SnapshotFile.snapshot_id == snapshot.id, Blob.extractor_version != EXTRACTOR_VERSION)
        .limit(1)
    )
    return stale is None and snapshot.file_count > 0


def _update_pins(row: Snapshot, snapshot: SourceSnapshot) -> None:
    row.origin = snapshot.origin
    row.source = snapshot.source
    row.tag = snapshot.tag or row.tag
    row.version = snapshot.version or row.version
    if snapshot.committed_at is not None:
        row.committed_at = snapshot.committed_at.astimezone(UTC).replace(tzinfo=None)
    row.crawled_at = datetime.now(UTC).replace(tzinfo=None)


def _known_blobs(session: Session, shas: Iterable[str]) -> set[str]:
    known: set[str] = set()
    ordered = sorted(shas)
    for start in range(0, len(ordered), CHUNK):
        chunk = ordered[start:start + CHUNK]
        known.update(session.scalars(
            select(Blob.sha).where(Blob.sha.in_(chunk), Blob.extractor_version == EXTRACTOR_VERSION)
        ))
    return known


def _unique_by_blob(files: Iterable[SourceFile]) -> list[SourceFile]:
    by_sha: dict[str, SourceFile] = {}
    for file in files:
        by_sha.setdefault(file.blob_sha, file)
    return list(by_sha.values())


def scan_blob(path: str, sha: str, data: bytes) -> _Scan:
    """Extract one blob's raise sites, or the reason it does not parse."""
    try:
        return _Scan(sha, len(data), extract_raise_sites(data, path), None)
    except SourceParseError as error:
        return _Scan(sha, len(data), [], error)


def _scan_args(files: Sequence[SourceFile]):
    for file in files:
        yield file.path, file.blob_sha, file.read()


def _scan_all(files: Sequence[SourceFile], *, jobs: int, progress: Progress | None, done: int, total: int):
    if progress:
        progress(done, total, "")
    if jobs > 1 and len(files) >= POOL_THRESHOLD:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            args = list(_scan_args(files))
            scans = pool.map(scan_blob, *zip(*args), chunksize=8)
            yield from _tick(scans, files, progress, done, total)
    else:
        scans = (scan_blob(*args) for args in _scan_args(files))
        yield from _tick(scans, files, progress, done, total)


def _tick(scans, files, progress, done, total):
    for file, scan in zip(files, scans):
        done += 1
        if progress:
            progress(done, total, file.path)
        yield scan


def _store_blob(session: Session, scan: _Scan) -> None:
    # A blob scanned by an older extractor is scanned again; its old sites (and their
    # occurrences, by ON DELETE CASCADE) go, and the snapshots holding it count as stale.
    session.execute(delete(RaiseSiteRow).where(RaiseSiteRow.blob_sha == scan.sha))
    blob = session.get(Blob, scan.sha)
    if blob is None:
        blob = Blob(sha=scan.sha)
        session.add(blob)
    error = scan.error
    blob.size = scan.size
    blob.extractor_version = EXTRACTOR_VERSION
    blob.parse_error = error.reason if error else None
    blob.parse_error_line = error.lineno if error else None
    session.flush()
    rows = [_site_row(scan.sha, site, base) for site, base in zip(scan.sites, base_ids(scan.sites))]
    if rows:
        session.execute(insert(RaiseSiteRow), rows)


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


def _store_files(session: Session, row: Snapshot, files: Sequence[SourceFile]) -> None:
    session.execute(delete(SnapshotFile).where(SnapshotFile.snapshot_id == row.id))
    session.execute(insert(SnapshotFile), [
        {"snapshot_id": row.id, "path": f.path, "blob_sha": f.blob_sha} for f in files
    ])


def _sites_by_blob(session: Session, shas: Iterable[str]) -> dict[str, list[tuple[int, str | None]]]:
    by_blob: dict[str, list[tuple[int, str | None]]] = {}
    ordered = sorted(set(shas))
    for start in range(0, len(ordered), CHUNK):
        rows = session.execute(
            select(RaiseSiteRow.blob_sha, RaiseSiteRow.id, RaiseSiteRow.base_id)
            .where(RaiseSiteRow.blob_sha.in_(ordered[start:start + CHUNK]))
            .order_by(RaiseSiteRow.blob_sha, RaiseSiteRow.lineno, RaiseSiteRow.id)
        )
        for sha, site_id, base in rows:
            by_blob.setdefault(sha, []).append((site_id, base))
    return by_blob


def _store_occurrences(session: Session, row: Snapshot, files: Sequence[SourceFile]) -> None:
    session.execute(delete(Occurrence).where(Occurrence.snapshot_id == row.id))
    by_blob = _sites_by_blob(session, (f.blob_sha for f in files))
    placed = [(f.path, site_id, base) for f in files for site_id, base in by_blob.get(f.blob_sha, [])]
    ids = error_ids((path, base) for path, _site, base in placed)
    if placed:
        session.execute(insert(Occurrence), [
            {"snapshot_id": row.id, "site_id": site_id, "path": path, "error_id": error_id}
            for (path, site_id, _base), error_id in zip(placed, ids)
        ])


def _count(session: Session, row: Snapshot, files: Sequence[SourceFile], report: CrawlReport) -> None:
    stats = session.execute(
        select(RaiseSiteRow.kind, RaiseSiteRow.template_parts, RaiseSiteRow.template_complete)
        .join(Occurrence, Occurrence.site_id == RaiseSiteRow.id)
        .where(Occurrence.snapshot_id == row.id, RaiseSiteRow.kind != "class_message")
    ).all()
    report.files = row.file_count = len(files)
    report.sites = row.site_count = len(stats)
    report.messages = sum(1 for kind, parts, _ in stats if kind == "raise" and parts)
    report.complete_templates = sum(1 for kind, parts, ok in stats if kind == "raise" and parts and ok)
    failures = session.execute(
        select(SnapshotFile.path, Blob.parse_error, Blob.parse_error_line).join(Blob)
        .where(SnapshotFile.snapshot_id == row.id, Blob.parse_error.is_not(None))
    ).all()
    report.parse_failures = [SourceParseError(path, line, reason, commit=row.commit) for path, reason, line in failures]
    row.parse_failures = len(failures)
