"""Crawl one pinned JAX snapshot into the catalogue: content-addressed, one transaction per commit."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC, datetime

import sqlalchemy.exc
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from jax_errors.crawler.blob_errors import store_for_history
from jax_errors.crawler.calls import summarize_tree
from jax_errors.crawler.docs import DocPassage, docs_digest, error_passages
from jax_errors.crawler.docs_store import copy_docs, has_docs, read_alike, store_docs
from jax_errors.crawler.entry_points import CallGraphScan, has_call_graph, start_call_graph, store_call_graph
from jax_errors.crawler.imports import module_imports
from jax_errors.crawler.raise_sites import raise_sites_of
from jax_errors.crawler.sources import SourceFile, SourceSnapshot
from jax_errors.crawler.statements import parse_source
from jax_errors.crawler.store import (
    BlobScan,
    SnapshotCounts,
    count,
    follow_rescanned_blobs,
    is_current,
    known_blobs,
    store_blob,
    store_files,
    store_occurrences,
)
from jax_errors.db.engine import begin_writing
from jax_errors.db.models import Snapshot
from jax_errors.exceptions import SourceError, SourceParseError
from jax_errors.faults import checkpoint
from jax_errors.forked import Forked
from jax_errors.progress import Progress
from jax_errors.reproduce.sandbox import die_with_parent
from jax_errors.snapshots import short_commit

# Below this many new blobs a process pool costs more than it saves.
POOL_THRESHOLD = int(os.environ.get("JAX_ERRORS_POOL_THRESHOLD", "64"))
# How many times a crawl starts again when a concurrent crawl stored the same rows first.
CRAWL_TRIES = int(os.environ.get("JAX_ERRORS_CRAWL_TRIES", "3"))


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

    def count(self, counts: SnapshotCounts) -> None:
        """Take the stored snapshot's counts."""
        self.files, self.sites, self.messages = counts.files, counts.sites, counts.messages
        self.complete_templates, self.parse_failures = counts.complete_templates, counts.parse_failures

    def summary(self) -> str:
        if self.skipped:
            return f"{self.label} ({short_commit(self.commit)}): already crawled"
        failures = f", {len(self.parse_failures)} files that do not parse" if self.parse_failures else ""
        return (
            f"{self.label} ({short_commit(self.commit)}): {self.files} files, {self.sites} raise sites, "
            f"{self.complete_share:.1%} of messages fully rebuilt; parsed {self.parsed} new blobs, "
            f"reused {self.reused}{failures}; {self.seconds:.1f} s"
        )


def crawl_snapshot(
    engine: Engine, snapshot: SourceSnapshot, *, force: bool = False, jobs: int = 1,
    progress: Progress | None = None, waiting: Callable[[], None] | None = None,
    meanwhile: Callable[[Sequence[BlobScan]], None] | None = None,
) -> CrawlReport:
    """Store the raise sites of every file of `snapshot`, parsing only blobs never scanned before.

    The new blobs are parsed first, then the whole snapshot is written in one transaction: an
    interrupted crawl leaves nothing behind. Files that do not parse are recorded with the
    reason, and the crawl goes on. On SQLite the transaction takes the write lock before it reads,
    so two crawls write one after the other; `waiting()` is called when this one has to wait.

    `meanwhile(scans)` is called, when the snapshot is not stored yet, with the new blobs' scans while
    the call graph is made on the second core, before the transaction: other work that would
    otherwise wait for the graph (a refresh extends the history line there); the crawl's `seconds` leave
    its time out. What it raises ends the crawl with nothing stored, but for an IntegrityError (another
    process wrote the same rows first), which makes the crawl start again as its own does.

    On PostgreSQL, another crawl committing the same blobs (or snapshot) first makes this one's
    transaction fail on a unique key; it then starts again, CRAWL_TRIES times at most, and finds
    them stored.

    Raises:
        SourceError: the snapshot holds no file of the jax package.
        DatabaseError: another process held SQLite's write lock for longer than its busy timeout.
    """
    if not snapshot.files:
        raise SourceError(f"{snapshot.source} at {snapshot.label} holds no jax/ package: nothing to crawl")
    for attempt in range(1, CRAWL_TRIES + 1):
        try:
            return _crawl_once(engine, snapshot, force=force, jobs=jobs, progress=progress, waiting=waiting,
                               meanwhile=meanwhile)
        except sqlalchemy.exc.IntegrityError:
            if attempt == CRAWL_TRIES:
                raise
    raise AssertionError("unreachable")


def _crawl_once(engine: Engine, snapshot: SourceSnapshot, *, force: bool, jobs: int,
                progress: Progress | None, waiting: Callable[[], None] | None,
                meanwhile: Callable[[Sequence[BlobScan]], None] | None) -> CrawlReport:
    started = time.perf_counter()
    report = CrawlReport(snapshot.label, snapshot.commit)
    # Parsed before the transaction: the write lock is held while writing, not while parsing.
    scans = _scan_new(engine, snapshot, force=force, jobs=jobs, progress=progress, report=report)
    # The call graph is built from every file's summary, stored or just made. With two jobs it is made on the
    # second core while the docs are read and the snapshot's rows written: the transaction waits for it last.
    graph = start_call_graph(engine, snapshot, scans, fork=jobs > 1) if scans is not None else None
    try:
        docs = _read_docs(engine, snapshot) if scans is not None else None
        checkpoint("crawl:parsed")
        if scans is not None and meanwhile is not None:
            before = time.perf_counter()
            meanwhile(scans)
            started += time.perf_counter() - before  # the crawl's time is its own
        if not _write(engine, snapshot, scans or [], graph, docs, force=force, report=report, waiting=waiting):
            return report
    finally:
        if graph is not None:
            graph.stop()
    checkpoint("crawl:committed")
    report.seconds = time.perf_counter() - started
    return report


def _write(engine: Engine, snapshot: SourceSnapshot, scans: list[BlobScan], graph: Forked[CallGraphScan] | None,
           docs: _Docs | None, *, force: bool, report: CrawlReport, waiting: Callable[[], None] | None) -> bool:
    """Store the snapshot in one transaction; False when it was stored already (and only its pins changed)."""
    with Session(engine) as session, session.begin():
        begin_writing(session, waiting=waiting)
        existing = session.scalar(select(Snapshot).where(Snapshot.commit == snapshot.commit))
        if _is_stored(session, existing, snapshot, force=force):
            _update_pins(existing, snapshot)
            report.skipped = True
            return False
        known = known_blobs(session, {scan.sha for scan in scans})  # another crawl may have stored some meanwhile
        rescanned = set()
        for scan in scans:
            if scan.sha not in known and store_blob(session, scan):
                rescanned.add(scan.sha)
        row = existing or Snapshot(commit=snapshot.commit)
        if existing is None:
            session.add(row)
        _update_pins(row, snapshot)
        session.flush()
        store_files(session, row, snapshot.files)
        store_occurrences(session, row, snapshot.files)
        report.count(count(session, row))
        if graph is not None and docs is not None:
            store_call_graph(session, row, graph.result())
            _store_docs(session, row, snapshot, docs)
        if rescanned:
            follow_rescanned_blobs(session, rescanned, crawled=row)
        store_for_history(session, scans)
        checkpoint("crawl:writing")
    return True


@dataclass
class _Docs:
    """A snapshot's docs passages, read now or found alike in a snapshot stored before."""

    digest: str
    alike: int | None = None  # the id of a stored snapshot whose docs were read from the same files
    pages: int = 0
    passages: list[DocPassage] = field(default_factory=list)


def _read_docs(engine: Engine, snapshot: SourceSnapshot) -> _Docs:
    """Most commits change no page of the docs: their passages are then copied, not read again."""
    docs = _Docs(docs_digest(snapshot.docs, snapshot.files))
    with Session(engine) as session:
        docs.alike = read_alike(session, docs.digest)
    if docs.alike is None:
        docs.pages, docs.passages = error_passages(snapshot.docs, snapshot.files)
    return docs


def _store_docs(session: Session, row: Snapshot, snapshot: SourceSnapshot, docs: _Docs) -> None:
    if docs.alike is not None and docs.alike != row.id and copy_docs(session, row, docs.alike):
        return
    if docs.alike is not None:  # the snapshot alike went meanwhile, or is this one (crawled again): read them
        docs.pages, docs.passages = error_passages(snapshot.docs, snapshot.files)
    store_docs(session, row, docs.passages, pages=docs.pages, digest=docs.digest)


def _is_stored(session: Session, existing: Snapshot | None, snapshot: SourceSnapshot, *, force: bool) -> bool:
    """Whether the snapshot is stored already, by this extractor, and need not be crawled again."""
    return (existing is not None and not force and existing.origin == snapshot.origin and is_current(session, existing)
            and has_call_graph(session, existing) and has_docs(session, existing))


def _scan_new(engine: Engine, snapshot: SourceSnapshot, *, force: bool, jobs: int, progress: Progress | None,
              report: CrawlReport) -> list[BlobScan] | None:
    """Parse the snapshot's blobs that the database lacks (None when the snapshot is stored already)."""
    with Session(engine) as session:
        existing = session.scalar(select(Snapshot).where(Snapshot.commit == snapshot.commit))
        if _is_stored(session, existing, snapshot, force=force):
            return None
        known = known_blobs(session, {f.blob_sha for f in snapshot.files})
    todo = _unique_by_blob(f for f in snapshot.files if f.blob_sha not in known)
    report.reused = len(snapshot.files) - len(todo)
    scans = list(_scan_all(todo, jobs=jobs, progress=progress, done=report.reused, total=len(snapshot.files)))
    report.parsed = len(scans)
    return scans


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


def date_undated_snapshots(engine: Engine, date_of: Callable[[Snapshot], datetime | None]) -> int:
    """Date the snapshots with no commit date (installed wheels) that `date_of` knows a date for.

    A wheel records its commit but not when it was made; with the date, history orders it among
    the commits crawled from git instead of guessing from version numbers. `date_of` is a clone's
    commit date (`JaxRepository.commit_date` of the snapshot's commit) or the package index's upload
    time of its release (`releases.upload_dates`). Returns how many it dated.
    """
    dated = 0
    with Session(engine) as session, session.begin():
        for row in session.scalars(select(Snapshot).where(Snapshot.committed_at.is_(None))):
            when = date_of(row)
            if when is not None:
                row.committed_at = when.astimezone(UTC).replace(tzinfo=None)
                dated += 1
    return dated


def _update_pins(row: Snapshot, snapshot: SourceSnapshot) -> None:
    row.origin = snapshot.origin
    row.source = snapshot.source
    row.tag = snapshot.tag or row.tag
    row.version = snapshot.version or row.version
    if snapshot.committed_at is not None:
        row.committed_at = snapshot.committed_at.astimezone(UTC).replace(tzinfo=None)
    row.crawled_at = datetime.now(UTC).replace(tzinfo=None)


def _unique_by_blob(files: Iterable[SourceFile]) -> list[SourceFile]:
    by_sha: dict[str, SourceFile] = {}
    for file in files:
        by_sha.setdefault(file.blob_sha, file)
    return list(by_sha.values())


def scan_blob(path: str, sha: str, data: bytes, link: bool = False, *, calls: bool = True) -> BlobScan:
    """Extract one blob's raise sites, or the reason it does not parse (a symbolic link is not read).

    With `calls`, also its call summary (`calls.summarize_tree`), which the history does without.
    """
    if link:
        target = data[:200].decode("utf-8", errors="replace")
        return BlobScan(sha, len(data), [], SourceParseError(path, None, f"a symbolic link to {target!r}, not read"))
    try:
        text, tree = parse_source(data, path)
        lines, imports = text.splitlines(), module_imports(tree, path)
        sites = raise_sites_of(tree, path=path, lines=lines, imports=imports)
        return BlobScan(sha, len(data), sites, None, path, summarize_tree(tree, path, lines, imports) if calls else None)
    except SourceParseError as error:
        return BlobScan(sha, len(data), [], error)
    except RecursionError:  # an expression nested past Python's stack, such as thousands of chained `+`
        return BlobScan(sha, len(data), [], SourceParseError(path, None, "too deeply nested to read"))


def _scan_args(files: Sequence[SourceFile]):
    for file in files:
        yield file.path, file.blob_sha, file.read(), file.link


def _scan_all(files: Sequence[SourceFile], *, jobs: int, progress: Progress | None, done: int, total: int):
    if progress:
        progress(done, total, "")
    if jobs > 1 and len(files) >= POOL_THRESHOLD:
        with ProcessPoolExecutor(max_workers=jobs, initializer=die_with_parent) as pool:
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
