"""The crawl's per-snapshot step: every file's call summary, the call graph, who reaches each raise, and the
words callers pass to functions that raise.

A blob's summary is made from the parse that found its raise sites; a blob the database holds
already has its summary stored, so only a file whose summary is missing (a catalogue crawled
before call graphs, or a blob read at a new path) is parsed for it.

The graph is a function of the summaries alone. Some commits change no summary (a raise moves,
a message is reworded): the newest snapshot stored then has the same graph, which is copied.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from sqlalchemy import Engine, delete, insert, select, tuple_
from sqlalchemy.orm import Session

from jax_errors.crawler.callgraph import GRAPH_VERSION, CallGraph
from jax_errors.crawler.calls import CALLS_VERSION, summarize_calls
from jax_errors.crawler.sources import SourceFile, SourceSnapshot
from jax_errors.crawler.store import BlobScan
from jax_errors.db.models import BlobCalls, PassedWords, RaisedBy, Snapshot, SnapshotCallGraph, SnapshotFile
from jax_errors.db.queries import chunks
from jax_errors.exceptions import SourceParseError
from jax_errors.forked import Forked
from jax_errors.long_lived import long_lived

Key = tuple[str, str]  # (blob sha, path)
# What a stored snapshot's graph was built by: summaries of one version, read by the graph of another.
BUILT_BY = f"{CALLS_VERSION}.{GRAPH_VERSION}"


@dataclass
class CallGraphScan:
    """What the per-snapshot step found, ready to be written with the snapshot."""

    made: dict[Key, dict[str, Any]] = field(default_factory=dict)  # summaries this crawl made
    rows: list[dict[str, Any]] = field(default_factory=list)  # raised_by rows, but for the snapshot id
    passed: list[dict[str, Any]] = field(default_factory=list)  # passed_words rows, likewise
    public_names: int = 0
    functions: int = 0


def has_call_graph(session: Session, snapshot: Snapshot) -> bool:
    """Whether the stored snapshot's call graph was built by these versions of the summaries and the graph."""
    return session.scalar(select(SnapshotCallGraph.version).where(
        SnapshotCallGraph.snapshot_id == snapshot.id)) == BUILT_BY


def start_call_graph(engine: Engine, snapshot: SourceSnapshot, scans: Sequence[BlobScan], *,
                     fork: bool = False) -> Forked[CallGraphScan]:
    """Gather every file's summary (stored, made by `scans`, or made now) and find who reaches each raise:
    the result is made, or copied, by the time this returns, unless `fork`.

    With `fork`, the graph is made on the second core (see `forked`): the summaries are read here,
    so that the child touches neither the database nor the repository, and only computes.
    """
    with long_lived() as loaded:
        found, summaries = _summaries(engine, snapshot, scans)
        loaded()
        # Started before the summaries are compared with the last graph's: a child given up costs little.
        graph = Forked(partial(_graph, found, summaries), fork=fork)
        try:
            with Session(engine) as session:
                same = _snapshot_with_summaries(session, summaries, crawling=snapshot.commit)
                copied = same is not None and _copy_graph(session, same, found)
            if copied:
                graph.done(found)
            elif not graph.in_child:
                graph.result()  # made now, with what was loaded frozen
        except BaseException:
            graph.stop()
            raise
    return graph


def _graph(found: CallGraphScan, summaries: dict[str, dict[str, Any]]) -> CallGraphScan:
    graph = CallGraph(summaries)
    reached = graph.raised_by()
    found.public_names, found.functions = len(graph.public_names()), len(reached)
    found.rows = [
        {"path": path, "qualname": qualname, "entries": [[e.name, e.length, list(e.route)] for e in entries]}
        for (path, qualname), entries in sorted(reached.items())
    ]
    found.passed = graph.passed_words()
    return found


def _summaries(engine: Engine, snapshot: SourceSnapshot,
               scans: Sequence[BlobScan]) -> tuple[CallGraphScan, dict[str, dict[str, Any]]]:
    """The summaries this crawl made (in a scan, holding what to store), and every file's summary by path."""
    keys = {(f.blob_sha, f.path) for f in snapshot.files}
    with Session(engine) as session:
        stored = stored_summaries(session, keys)
    found = CallGraphScan(made={(s.sha, s.path): s.calls for s in scans
                                if s.calls is not None and (s.sha, s.path) in keys})
    found.made.update(_summarize_missing(f for f in snapshot.files if (f.blob_sha, f.path) not in stored
                                         and (f.blob_sha, f.path) not in found.made))
    return found, {path: summary for (_sha, path), summary in sorted({**stored, **found.made}.items())}


def _snapshot_with_summaries(session: Session, summaries: dict[str, dict[str, Any]], *, crawling: str) -> int | None:
    """The newest stored snapshot (by id) other than the one `crawling` (a commit, crawled again), if its
    graph was built by this version from exactly these summaries."""
    last = session.scalar(
        select(SnapshotCallGraph.snapshot_id).join(Snapshot, Snapshot.id == SnapshotCallGraph.snapshot_id)
        .where(SnapshotCallGraph.version == BUILT_BY, Snapshot.commit != crawling)
        .order_by(SnapshotCallGraph.snapshot_id.desc()).limit(1))
    if last is None:
        return None
    files = session.execute(select(SnapshotFile.blob_sha, SnapshotFile.path).where(SnapshotFile.snapshot_id == last))
    theirs = {path: summary for (_sha, path), summary in stored_summaries(session, files.tuples()).items()}
    return last if theirs == summaries else None


def _copy_graph(session: Session, snapshot_id: int, found: CallGraphScan) -> bool:
    """Give `found` the graph of `snapshot_id`; False if that snapshot went meanwhile."""
    graph = session.get(SnapshotCallGraph, snapshot_id)
    if graph is None:
        return False
    found.public_names, found.functions = graph.public_names, graph.functions
    rows = session.execute(select(RaisedBy.path, RaisedBy.qualname, RaisedBy.entries)
                           .where(RaisedBy.snapshot_id == snapshot_id).order_by(RaisedBy.path, RaisedBy.qualname))
    found.rows = [{"path": path, "qualname": qualname, "entries": entries} for path, qualname, entries in rows]
    passed = session.execute(select(PassedWords.path, PassedWords.qualname, PassedWords.caller_path,
                                    PassedWords.caller_qualname, PassedWords.words)
                             .where(PassedWords.snapshot_id == snapshot_id).order_by(PassedWords.id))
    found.passed = [{"path": path, "qualname": qualname, "caller_path": caller_path, "caller_qualname": caller,
                     "words": words} for path, qualname, caller_path, caller, words in passed]
    return True


def stored_summaries(session: Session, keys: Iterable[Key]) -> dict[Key, dict[str, Any]]:
    """The stored summaries of this version for these (blob, path) pairs."""
    found: dict[Key, dict[str, Any]] = {}
    for chunk in chunks(sorted(keys)):
        rows = session.execute(select(BlobCalls.blob_sha, BlobCalls.path, BlobCalls.summary).where(
            tuple_(BlobCalls.blob_sha, BlobCalls.path).in_(chunk), BlobCalls.version == CALLS_VERSION))
        found.update({(sha, path): summary for sha, path, summary in rows})
    return found


def _summarize_missing(files: Iterable[SourceFile]) -> dict[Key, dict[str, Any]]:
    made = {}
    for file in files:
        if file.link:
            continue
        try:
            made[(file.blob_sha, file.path)] = summarize_calls(file.read(), file.path)
        except (SourceParseError, RecursionError):
            continue  # recorded by the raise-site scan; the graph goes without this file
    return made


def store_call_graph(session: Session, row: Snapshot, found: CallGraphScan) -> None:
    """Write the summaries made and the snapshot's entry points (replacing what it had)."""
    made = sorted(found.made.items())
    for chunk in chunks([key for key, _ in made]):
        session.execute(delete(BlobCalls).where(tuple_(BlobCalls.blob_sha, BlobCalls.path).in_(chunk)))
    if made:
        session.execute(insert(BlobCalls), [
            {"blob_sha": sha, "path": path, "version": CALLS_VERSION, "summary": summary}
            for (sha, path), summary in made
        ])
    session.execute(delete(RaisedBy).where(RaisedBy.snapshot_id == row.id))
    if found.rows:
        session.execute(insert(RaisedBy), [{"snapshot_id": row.id, **entry} for entry in found.rows])
    session.execute(delete(PassedWords).where(PassedWords.snapshot_id == row.id))
    if found.passed:
        session.execute(insert(PassedWords), [{"snapshot_id": row.id, **entry} for entry in found.passed])
    session.execute(delete(SnapshotCallGraph).where(SnapshotCallGraph.snapshot_id == row.id))
    session.add(SnapshotCallGraph(snapshot_id=row.id, version=BUILT_BY, public_names=found.public_names,
                                  functions=found.functions))
