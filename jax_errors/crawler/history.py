"""Crawl every commit of a branch's first-parent history: when exactly each error came, changed and went.

Each distinct blob is read once (`BlobErrors`), then the commits are replayed in order in memory:
a commit that changes no error writes only its own row. An error's presence is stored as spans of
commits (`ErrorSpan`), and what a commit did to it as events (`HistoryEvent`): added, removed,
reworded or moved, linked the way `db.history` links snapshots. Commits are written in batches,
each in its own transaction: an interrupted crawl keeps every batch it finished, and the next
run goes on from the last commit stored.
"""

from __future__ import annotations

import os
import time
from collections import defaultdict, deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import UTC
from itertools import batched

from sqlalchemy import Engine, func, insert, select, update
from sqlalchemy.orm import Session

from jax_errors.crawler.blob_errors import errors_of, store_errors, stored_errors
from jax_errors.crawler.crawl import scan_blob
from jax_errors.crawler.ids import error_id
from jax_errors.crawler.repository import ChangedFile, JaxRepository
from jax_errors.crawler.sources import is_package_source
from jax_errors.crawler.store import BlobScan
from jax_errors.db.commit_history import RELEASES_TEXT, holds_history, releases_of
from jax_errors.db.engine import begin_writing
from jax_errors.db.history import ErrorInfo, match_lineage
from jax_errors.db.models import BlobErrors, ErrorSpan, HistoryCommit, HistoryEvent
from jax_errors.db.queries import chunks
from jax_errors.exceptions import SourceError
from jax_errors.faults import checkpoint
from jax_errors.progress import Progress
from jax_errors.reproduce.sandbox import die_with_parent
from jax_errors.snapshots import is_final_release_tag, short_commit

# Commits written per transaction; a crawl stopped midway keeps every batch it committed.
HISTORY_BATCH = int(os.environ.get("JAX_ERRORS_HISTORY_BATCH", "500"))
# Blobs scanned per transaction of the reading phase.
BLOB_BATCH = int(os.environ.get("JAX_ERRORS_HISTORY_BLOB_BATCH", "200"))
# Blobs read ahead per worker.
SCAN_WINDOW = 16


@dataclass
class HistoryReport:
    """What one history crawl did."""

    rev: str
    first: str | None = None  # the first commit this run crawled
    commits: int = 0
    stored_before: int = 0
    parsed: int = 0
    reused: int = 0
    events: int = 0
    seconds: float = 0.0

    def summary(self) -> str:
        if not self.commits:
            return f"{self.rev}: history up to date ({self.stored_before} commits stored)"
        resumed = f", after {self.stored_before} stored before" if self.stored_before else ""
        return (f"{self.rev}: crawled {self.commits} first-parent commits from {short_commit(self.first or '')}"
                f"{resumed}; parsed {self.parsed} blobs, reused {self.reused}; {self.events} error events; "
                f"{self.seconds:.1f} s")


@dataclass(frozen=True)
class Raise:
    """One raise of a blob as the history follows it: its base id and what identifies its error."""

    base: str
    exc: str
    qualname: str
    skeleton: str
    lineno: int


def scan_errors(path: str, sha: str, data: bytes, link: bool = False) -> tuple[str, list[list], str | None]:
    """The raises of one blob (as `BlobErrors.errors` rows), or why it does not parse."""
    return sha, *errors_of(scan_blob(path, sha, data, link, calls=False))


def has_history(engine: Engine) -> bool:
    """Whether the catalogue holds a first-parent history."""
    with Session(engine) as session:
        return holds_history(session)


def crawl_history(
    engine: Engine, repository: JaxRepository, rev: str = "HEAD", *, since: str | None = None, jobs: int = 1,
    progress: Progress | None = None, waiting: Callable[[], None] | None = None, scanned: Sequence[BlobScan] = (),
) -> HistoryReport:
    """Crawl `rev`'s first-parent commits from `since` (default: the root), going on from the last one stored.

    `scanned`: blobs a snapshot crawl has just scanned and not yet stored (a refresh extends the line while
    that crawl's call graph is made): their rows are stored from the scans, not parsed again.

    Raises:
        UnknownRevisionError: `rev` or `since` names no commit.
        SourceError: `since` is not on `rev`'s first-parent history, or the stored history is not.
    """
    started = time.perf_counter()
    report = HistoryReport(rev)
    with Session(engine) as session:
        last = session.scalar(select(HistoryCommit).order_by(HistoryCommit.position.desc()).limit(1))
        report.stored_before = session.scalar(select(func.count()).select_from(HistoryCommit)) or 0
    if last is not None:
        try:
            todo = repository.first_parent_line(rev, after=last.commit)
        except SourceError as error:
            raise SourceError(f"the stored history ends at {short_commit(last.commit)}, which is not on the "
                              f"first-parent history of {rev}: crawl that into another database") from error
        start = last.position + 1
        if not todo:
            _require_stored(engine, repository.commit(rev).hexsha, rev)
    else:
        line = repository.first_parent_line(rev)
        positions = {sha: i for i, (sha, _) in enumerate(line, 1)}
        # A release tag on a release branch begins where its branch left the line.
        first = repository.fork_point(since, set(positions)) if since else line[0][0]
        if first is None:
            raise SourceError(f"{since} is not on the first-parent history of {rev}, nor made from a commit of it")
        start = positions[first]
        todo = line[start - 1:]
    if todo:
        _crawl_commits(engine, repository, todo, start, last, jobs=jobs, progress=progress, waiting=waiting,
                       report=report, scanned=scanned)
    _update_releases(engine, repository)
    report.seconds = time.perf_counter() - started
    return report


def _require_stored(engine: Engine, sha: str, rev: str) -> None:
    """`rev` has no commit after the stored history: it must be one of its commits."""
    with Session(engine) as session:
        if session.scalar(select(HistoryCommit.position).where(HistoryCommit.commit == sha)) is None:
            raise SourceError(f"{rev} is not on the stored first-parent history: crawl it into another database")


def _crawl_commits(engine: Engine, repository: JaxRepository, todo: Sequence[tuple], start: int,
                   last: HistoryCommit | None, *, jobs: int, progress: Progress | None,
                   waiting: Callable[[], None] | None, report: HistoryReport, scanned: Sequence[BlobScan]) -> None:
    report.first = todo[0][0]
    base = last.commit if last is not None else todo[0][0]  # the tree the replay starts from
    changes = dict(repository.first_parent_changes(base, todo[-1][0]))
    tree = repository.files(base)
    _read_blobs(engine, repository, tree, changes.values(), jobs=jobs, progress=progress, report=report,
                scanned=scanned)
    _replay(engine, todo, start, tree, changes, fresh=last is None, progress=progress, waiting=waiting, report=report)


def _read_blobs(engine: Engine, repository: JaxRepository, tree, changed: Iterable[list[ChangedFile]], *, jobs: int,
                progress: Progress | None, report: HistoryReport, scanned: Sequence[BlobScan] = ()) -> None:
    """Scan every blob the replay will meet that no crawl stored yet, storing them a batch at a time (those in
    `scanned` from their scans)."""
    wanted: dict[str, tuple[str, bool]] = {f.blob_sha: (f.path, f.link) for f in tree}
    for files in changed:
        for change in files:
            if change.blob_sha is not None and is_package_source(change.path):
                wanted.setdefault(change.blob_sha, (change.path, change.link))
    with Session(engine) as session:
        known = stored_errors(session, wanted)
    ready = [(scan.sha, *errors_of(scan)) for scan in scanned if scan.sha in wanted and scan.sha not in known]
    if ready:
        with Session(engine) as session, session.begin():
            begin_writing(session)
            store_errors(session, ready)
    known.update(sha for sha, _, _ in ready)
    todo = sorted((sha, path, link) for sha, (path, link) in wanted.items() if sha not in known)
    report.parsed, report.reused = len(todo), len(wanted) - len(todo)
    done = 0
    for batch in batched(_scan(repository, todo, jobs=jobs), BLOB_BATCH):
        with Session(engine) as session, session.begin():
            begin_writing(session)
            store_errors(session, batch)
        done += len(batch)
        if progress:
            progress(done, len(todo), "reading blobs")
        checkpoint("history:blobs")


def _scan(repository: JaxRepository, todo: Sequence[tuple[str, str, bool]], *, jobs: int) -> Iterator[tuple]:
    def args():
        for sha, path, link in todo:
            yield path, sha, repository.read_blob(sha), link

    if jobs > 1 and len(todo) >= 64:
        with ProcessPoolExecutor(max_workers=jobs, initializer=die_with_parent) as pool:
            # Submitted a window at a time: `pool.map` would read every blob into memory first.
            pending: deque = deque()
            for scan_args in args():
                pending.append(pool.submit(scan_errors, *scan_args))
                if len(pending) >= SCAN_WINDOW * jobs:
                    yield pending.popleft().result()
            while pending:
                yield pending.popleft().result()
    else:
        for scan_args in args():
            yield scan_errors(*scan_args)


class LineState:
    """The errors of every file at one commit of the line, kept up to date commit by commit.

    Error ids are as `crawler.ids.error_ids` makes them for a snapshot: a base id that two files
    share mixes in the path, so a change to one file can change the ids of another.
    """

    def __init__(self, raises_of: Callable[[str], list[Raise]]) -> None:
        self.raises_of = raises_of
        self.files: dict[str, str] = {}
        self.paths_by_base: dict[str, set[str]] = defaultdict(set)
        self.errors: dict[str, dict[str, ErrorInfo]] = {}  # path -> error id -> info

    def apply(self, changes: Iterable[ChangedFile]) -> tuple[dict[str, ErrorInfo], dict[str, ErrorInfo]]:
        """Apply a commit's changed files; the errors of every file whose ids may differ, (before, after)."""
        touched_paths, touched_bases = set(), set()
        for change in changes:
            if not is_package_source(change.path):
                continue
            touched_paths.add(change.path)
            old = self.files.pop(change.path, None)
            if old is not None:
                for item in self.raises_of(old):
                    touched_bases.add(item.base)
                    self.paths_by_base[item.base].discard(change.path)
            if change.blob_sha is not None:
                self.files[change.path] = change.blob_sha
                for item in self.raises_of(change.blob_sha):
                    touched_bases.add(item.base)
                    self.paths_by_base[item.base].add(change.path)
        affected = touched_paths | {p for b in touched_bases for p in self.paths_by_base.get(b, ())}
        before = {i: info for p in affected for i, info in self.errors.get(p, {}).items()}
        for path in affected:
            self.errors.pop(path, None)
            if path in self.files:
                self.errors[path] = self._errors_of(path)
        after = {i: info for p in affected for i, info in self.errors.get(p, {}).items()}
        for base in touched_bases:
            if not self.paths_by_base.get(base):
                self.paths_by_base.pop(base, None)
        return before, after

    def _errors_of(self, path: str) -> dict[str, ErrorInfo]:
        found = {}
        for item in self.raises_of(self.files[path]):
            placed = error_id(item.base, path, shared=len(self.paths_by_base[item.base]) > 1)
            found[placed] = ErrorInfo(placed, item.exc, item.qualname, path, item.skeleton, item.skeleton)
        return found

    def open_keys(self) -> set[tuple[str, str]]:
        return {(error_id, path) for path, errors in self.errors.items() for error_id in errors}


@dataclass
class _Batch:
    """What a run of commits writes: their rows, the spans they open and close, their events."""

    commits: list[dict] = field(default_factory=list)
    opened: dict[tuple[str, str], int] = field(default_factory=dict)  # (error id, path) -> first position
    closed: dict[tuple[str, str], int] = field(default_factory=dict)  # spans stored open before, closed at
    whole: list[tuple[tuple[str, str], int, int]] = field(default_factory=list)  # opened and closed in the batch
    events: list[dict] = field(default_factory=list)

    def close(self, key: tuple[str, str], last: int) -> None:
        first = self.opened.pop(key, None)
        if first is None:
            self.closed[key] = last
        elif first <= last:
            self.whole.append((key, first, last))


def _replay(engine: Engine, todo: Sequence[tuple], start: int, tree, changes: dict[str, list[ChangedFile]], *,
            fresh: bool, progress: Progress | None, waiting: Callable[[], None] | None,
            report: HistoryReport) -> None:
    raises: dict[str, list[Raise]] = {}

    def raises_of(sha: str) -> list[Raise]:
        if sha not in raises:
            raises.update(_load_raises(engine, [sha]))
        return raises[sha]

    raises.update(_load_raises(engine, [f.blob_sha for f in tree]))
    state = LineState(raises_of)
    state.apply(ChangedFile(f.path, f.blob_sha, f.link) for f in tree)
    batch = _Batch()
    for offset, (sha, committed_at) in enumerate(todo):
        position = start + offset
        if offset % HISTORY_BATCH == 0:  # the blobs this batch of commits brings, read in one go
            coming = {c.blob_sha for commit, _ in todo[offset:offset + HISTORY_BATCH]
                      for c in changes.get(commit, ()) if c.blob_sha is not None}
            raises.update(_load_raises(engine, coming - raises.keys()))
        if offset == 0 and fresh:
            batch.opened.update(dict.fromkeys(state.open_keys(), position))  # present when the line begins
        elif sha in changes:
            _record(batch, position, *state.apply(changes[sha]))
        batch.commits.append({"position": position, "commit": sha, "committed_at": committed_at.replace(tzinfo=None),
                              "releases": []})
        if len(batch.commits) >= HISTORY_BATCH or offset == len(todo) - 1:
            report.events += len(batch.events)
            _write(engine, batch, waiting=waiting)
            report.commits += len(batch.commits)
            batch = _Batch()
            if progress:
                progress(offset + 1, len(todo), f"commit {short_commit(sha)}")
            checkpoint("history:committed")


def _load_raises(engine: Engine, shas: Iterable[str]) -> dict[str, list[Raise]]:
    found: dict[str, list[Raise]] = {}
    with Session(engine) as session:
        for chunk in chunks(shas):
            for sha, errors in session.execute(select(BlobErrors.sha, BlobErrors.errors).where(BlobErrors.sha.in_(chunk))):
                found[sha] = [Raise(*row) for row in errors]
    for sha in shas:
        found.setdefault(sha, [])
    return found


def _record(batch: _Batch, position: int, before: dict[str, ErrorInfo], after: dict[str, ErrorInfo]) -> None:
    """The spans and events of one commit, from the errors of the files it changed, before and after."""
    removed = [before[i] for i in sorted(before.keys() - after.keys())]
    added = [after[i] for i in sorted(after.keys() - before.keys())]
    relocated = [i for i in sorted(before.keys() & after.keys()) if before[i].path != after[i].path]
    for info in removed + [before[i] for i in relocated]:
        batch.close((info.error_id, info.path), position - 1)
    for info in added + [after[i] for i in relocated]:
        batch.opened[(info.error_id, info.path)] = position
    moved, reworded = match_lineage(removed, added, [(before[i], after[i]) for i in relocated],
                                    lambda: {(info.path, info.qualname) for info in after.values()})
    linked_old = {o.error_id for o, _ in moved + reworded}
    linked_new = {n.error_id for _, n in moved + reworded}
    for kind, pairs in (("moved", moved), ("reworded", reworded)):
        batch.events += [_event(position, kind, new, old) for old, new in pairs]
    batch.events += [_event(position, "moved", after[i], before[i]) for i in relocated]
    batch.events += [_event(position, "added", info) for info in added if info.error_id not in linked_new]
    batch.events += [_event(position, "removed", info) for info in removed if info.error_id not in linked_old]


def _event(position: int, kind: str, info: ErrorInfo, previous: ErrorInfo | None = None) -> dict:
    return {"position": position, "kind": kind, "error_id": info.error_id, "path": info.path,
            "function": info.qualname, "template": info.skeleton,
            "previous_id": previous.error_id if previous else None,
            "previous_path": previous.path if previous else None,
            "previous_function": previous.qualname if previous else None,
            "previous_template": previous.skeleton if previous else None}


def _write(engine: Engine, batch: _Batch, *, waiting: Callable[[], None] | None) -> None:
    with Session(engine) as session, session.begin():
        begin_writing(session, waiting=waiting)
        session.execute(insert(HistoryCommit), batch.commits)
        for (error, path), last in sorted(batch.closed.items()):
            session.execute(update(ErrorSpan).where(
                ErrorSpan.error_id == error, ErrorSpan.path == path, ErrorSpan.last_position.is_(None),
            ).values(last_position=last))
        spans = [(key, first, last) for key, first, last in batch.whole]
        spans += [(key, first, None) for key, first in batch.opened.items()]
        if spans:
            session.execute(insert(ErrorSpan), [
                {"error_id": error, "path": path, "first_position": first, "last_position": last}
                for (error, path), first, last in sorted(spans, key=lambda s: (s[1], s[0]))])
        if batch.events:
            session.execute(insert(HistoryEvent), batch.events)
        checkpoint("history:writing")


def _update_releases(engine: Engine, repository: JaxRepository) -> None:
    """Mark stored commits with the release tags made from them: tags new since the last run, or never placed."""
    with Session(engine) as session, session.begin():
        begin_writing(session)
        stored = {sha: (position, releases_of(releases), date) for position, sha, releases, date in session.execute(
            select(HistoryCommit.position, HistoryCommit.commit, RELEASES_TEXT, HistoryCommit.committed_at))}
        if not stored:
            return
        placed = {tag for _, releases, _ in stored.values() for tag in releases}
        began = min(stored.values())[2].replace(tzinfo=UTC)
        found = repository.release_fork_points(set(stored), [t for t in repository.release_tags()
                                                                if is_final_release_tag(t) and t not in placed],
                                               not_before=began)
        adding: dict[int, list[str]] = defaultdict(list)
        for tag, sha in found.items():
            adding[stored[sha][0]].append(tag)
        if adding:
            session.execute(update(HistoryCommit), [
                {"position": position, "releases": sorted(set(stored_releases) | set(adding[position]))}
                for position, stored_releases, _ in stored.values() if position in adding])
