"""Several jax-errors processes on one SQLite file: writers wait for each other, readers never fail.

A crawl is stopped (SIGSTOP, at `crawl:writing`) while it holds the write lock with its rows written
and not committed; what runs beside it then runs against exactly that state, on every run.
"""

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from commands import finish, go_on, integrity, ok, one_line_error, run, snapshots, start, stopped_at, wait_until

FIRST = {
    "jax/core.py": '''
        def check(x):
            if x < 0:
                raise ValueError(f"x must be non-negative, got {x}")
            return x
    ''',
}
SECOND = {
    "jax/later.py": '''
        def later(axis):
            raise IndexError(f"the second release alone raises this about axis {axis}")
    ''',
}
THIRD = {
    "jax/third.py": '''
        def third(n):
            raise KeyError(f"only the third release words a missing key {n} like this")
    ''',
}
WAITING = "waiting for another process to finish writing"


@pytest.fixture
def releases(git_repo):
    """A repository with three tagged releases, each adding a module that raises."""
    git_repo.commit(FIRST, "first", tag="jax-v0.0.1")
    git_repo.commit(SECOND, "second", tag="jax-v0.0.2")
    git_repo.commit(THIRD, "third", tag="jax-v0.0.3")
    return git_repo.path


def crawl(repo: Path, db: Path, rev: str) -> list[str]:
    return ["crawl", "--repo", str(repo), "--rev", rev, "--jobs", "1", "--db", str(db)]


def test_a_second_crawl_waits_for_the_first_and_both_land(releases, db_path, tmp_path):
    ok(*crawl(releases, db_path, "jax-v0.0.1"))
    first = stopped_at("crawl:writing", *crawl(releases, db_path, "jax-v0.0.2"), stderr=tmp_path / "first.err")
    try:
        second = start(*crawl(releases, db_path, "jax-v0.0.3"), stderr=tmp_path / "second.err")
        wait_until(lambda: WAITING in (tmp_path / "second.err").read_text(), "waiting", process=second)
        assert "jax-v0.0.2 (" in go_on(first)
        out, _ = second.communicate(timeout=600)
    finally:
        finish(first)
    assert second.returncode == 0 and "jax-v0.0.3 (" in out.decode()
    assert (tmp_path / "second.err").read_text().count(WAITING) == 1
    integrity(db_path)
    assert snapshots(db_path) == ["jax-v0.0.1 1 files 1 sites", "jax-v0.0.2 2 files 2 sites",
                                  "jax-v0.0.3 3 files 3 sites"]


def test_two_crawls_of_one_release_store_it_once(releases, db_path, tmp_path):
    first = stopped_at("crawl:writing", *crawl(releases, db_path, "jax-v0.0.2"), stderr=tmp_path / "first.err")
    try:
        second = start(*crawl(releases, db_path, "jax-v0.0.2"), stderr=tmp_path / "second.err")
        wait_until(lambda: WAITING in (tmp_path / "second.err").read_text(), "waiting", process=second)
        go_on(first)
        out, _ = second.communicate(timeout=600)
    finally:
        finish(first)
    assert second.returncode == 0 and "jax-v0.0.2 (" in out.decode() and "already crawled" in out.decode()
    assert snapshots(db_path) == ["jax-v0.0.2 2 files 2 sites"]


def test_a_writer_that_cannot_wait_longer_fails_in_one_line_and_loses_nothing(releases, db_path, tmp_path):
    ok(*crawl(releases, db_path, "jax-v0.0.1"))
    first = stopped_at("crawl:writing", *crawl(releases, db_path, "jax-v0.0.2"), stderr=tmp_path / "first.err")
    try:
        done = run(*crawl(releases, db_path, "jax-v0.0.3"), JAX_ERRORS_BUSY_TIMEOUT_MS="300")
        assert WAITING in done.stderr
        assert one_line_error(done).startswith(
            f"Error: another process kept database {db_path} locked for over 0.3 s "
            "(JAX_ERRORS_BUSY_TIMEOUT_MS); nothing was written")
        go_on(first)
    finally:
        finish(first)
    integrity(db_path)
    assert snapshots(db_path) == ["jax-v0.0.1 1 files 1 sites", "jax-v0.0.2 2 files 2 sites"]


def lookup(db: Path, message: str) -> list[tuple[str, str]]:
    out = ok("lookup", "--json", message, "--db", str(db))
    return [(match["snapshot"], match["exception"]) for match in json.loads(out)["matches"]]


def site_errors(site: Path) -> list[str]:
    return sorted(f"{error['path']} {error['class']}" for error in json.loads((site / "api/errors.json").read_text())["errors"])


def test_readers_beside_a_crawl_holding_the_write_lock_see_the_last_commit(releases, db_path, tmp_path):
    ok(*crawl(releases, db_path, "jax-v0.0.1"))
    second_message = "the second release alone raises this about axis 3"
    assert lookup(db_path, second_message) == []
    writer = stopped_at("crawl:writing", *crawl(releases, db_path, "jax-v0.0.2"), stderr=tmp_path / "writer.err")
    try:
        assert snapshots(db_path) == ["jax-v0.0.1 1 files 1 sites"]
        assert lookup(db_path, "x must be non-negative, got -1") == [("jax-v0.0.1", "ValueError")]
        assert lookup(db_path, second_message) == []
        ok("build", "--out", str(tmp_path / "site"), "--no-search", "--knowledge", str(tmp_path / "none"),
           "--cases", str(tmp_path / "none"), "--db", str(db_path))
        assert site_errors(tmp_path / "site") == ["jax/core.py ValueError"]
        go_on(writer)
    finally:
        finish(writer)
    assert lookup(db_path, second_message) == [("jax-v0.0.2", "IndexError")]
    integrity(db_path)


OPEN = "import sys; from jax_errors.db.engine import open_database; open_database(sys.argv[1])"


def test_processes_opening_a_new_file_at_once_migrate_it_one_after_the_other(tmp_path):
    """Each one's migration takes the write lock before it reads the schema's revision (BEGIN IMMEDIATE)."""
    for round_ in range(6):
        db = Path(tempfile.mkdtemp(dir=tmp_path)) / "new.db"
        openers = [subprocess.Popen([sys.executable, "-c", OPEN, str(db)], stderr=subprocess.PIPE, text=True)
                   for _ in range(3)]
        failures = [opener.communicate()[1] for opener in openers if opener.wait() != 0]
        assert failures == [], f"round {round_}: {failures[0][-500:]}"
        integrity(db)



def test_switching_a_file_to_wal_waits_for_a_writer_that_sqlite_would_not_wait_for(tmp_path):
    """SQLite answers "database is locked" to `PRAGMA journal_mode=WAL` at once, busy handler or not, when
    another connection holds the write lock on a file still in rollback mode: the open must wait for it."""
    import sqlite3
    import threading

    from jax_errors.db.engine import database_url, make_engine

    path = tmp_path / "rollback.db"
    writer = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    writer.execute("CREATE TABLE held (x)")
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("INSERT INTO held VALUES (1)")
    plain = sqlite3.connect(path, isolation_level=None, timeout=5)
    with pytest.raises(sqlite3.OperationalError, match="database is locked"):
        plain.execute("PRAGMA journal_mode=WAL")  # the behaviour worked around: no wait despite the timeout
    plain.close()
    release = threading.Timer(0.3, lambda: writer.execute("COMMIT"))
    release.start()
    try:
        with make_engine(database_url(path)).connect() as connection:
            assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert connection.exec_driver_sql("SELECT x FROM held").scalars().all() == [1]
    finally:
        release.join()
        writer.close()
