"""Snapshots' contents stored as spans read back exactly, and cost rows only where contents change."""

import random
from datetime import datetime

from sqlalchemy import func, insert, select
from sqlalchemy.orm import Session

from jax_errors.db.models import Blob, FileSpan, Snapshot, SnapshotFile
from jax_errors.db.spans import place

BLOBS = [f"{n:040x}" for n in range(12)]


def add_snapshot(session: Session, n: int) -> int:
    row = Snapshot(commit=f"{n:040x}", origin="git", source="test", crawled_at=datetime(2026, 1, 1))
    session.add(row)
    session.flush()
    return row.id


def held(session: Session) -> dict[int, set[tuple[str, str]]]:
    found: dict[int, set[tuple[str, str]]] = {}
    for snapshot_id, path, sha in session.execute(select(SnapshotFile.snapshot_id, SnapshotFile.path,
                                                         SnapshotFile.blob_sha)):
        found.setdefault(snapshot_id, set()).add((path, sha))
    return found


def evolve(rng: random.Random, files: dict[str, str]) -> dict[str, str]:
    """The next commit: mostly the same files, a few changed, added or removed."""
    files = dict(files)
    for _ in range(rng.choice([0, 0, 1, 2])):
        path = f"jax/f{rng.randrange(8)}.py"
        if path in files and rng.random() < 0.3:
            del files[path]
        else:
            files[path] = rng.choice(BLOBS)
    return files


def test_spans_read_back_every_snapshot_and_grow_with_changes(fresh_db):
    rng = random.Random(7)
    truth: dict[int, set[tuple[str, str]]] = {}
    with Session(fresh_db) as session, session.begin():
        session.execute(insert(Blob), [{"sha": sha, "size": 1, "extractor_version": "t"} for sha in BLOBS])
        files = {f"jax/f{i}.py": BLOBS[i] for i in range(5)}
        changes = 0
        for n in range(200):
            new = evolve(rng, files)
            changes += len(set(new.items()) ^ set(files.items()))
            files = new
            snapshot_id = add_snapshot(session, n)
            truth[snapshot_id] = set(files.items())
            place(session, FileSpan, snapshot_id, files.items())
        assert held(session) == truth
        spans = session.scalar(select(func.count()).select_from(FileSpan))
        # Each span opens with the first snapshot or a change: 5 first files, then at most one per change.
        assert spans <= 5 + changes < 200 * 5 / 2

        # Placed again out of order (a re-crawl finds other contents): neighbours keep theirs.
        for snapshot_id in rng.sample(sorted(truth), 60):
            contents = {(f"jax/f{i}.py", rng.choice(BLOBS)) for i in rng.sample(range(8), rng.randrange(0, 6))}
            if rng.random() < 0.3:
                contents = truth[snapshot_id - 1] if snapshot_id - 1 in truth else set()
            truth[snapshot_id] = contents
            place(session, FileSpan, snapshot_id, contents)
            assert held(session) == {k: v for k, v in truth.items() if v}, snapshot_id


def test_an_unchanged_snapshot_writes_no_row(fresh_db):
    with Session(fresh_db) as session, session.begin():
        session.execute(insert(Blob), [{"sha": sha, "size": 1, "extractor_version": "t"} for sha in BLOBS])
        files = [("jax/a.py", BLOBS[0]), ("jax/b.py", BLOBS[1])]
        for n in range(50):
            place(session, FileSpan, add_snapshot(session, n), files)
        rows = session.execute(select(FileSpan.path, FileSpan.first_snapshot, FileSpan.last_snapshot)
                               .order_by(FileSpan.path)).all()
        assert rows == [("jax/a.py", 1, None), ("jax/b.py", 1, None)]
        place(session, FileSpan, add_snapshot(session, 50), files[:1])
        place(session, FileSpan, add_snapshot(session, 51), files)
        rows = session.execute(select(FileSpan.path, FileSpan.first_snapshot, FileSpan.last_snapshot)
                               .order_by(FileSpan.path, FileSpan.first_snapshot)).all()
        assert rows == [("jax/a.py", 1, None), ("jax/b.py", 1, 50), ("jax/b.py", 52, None)]
