"""The catalogue on PostgreSQL, from a URL alone (scripts/test.sh starts a local server)."""

import os
import uuid

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

from jax_errors.crawler.crawl import crawl_snapshot
from jax_errors.crawler.repository import JaxRepository
from jax_errors.crawler.sources import git_blob_sha
from jax_errors.db.engine import open_database
from jax_errors.db.history import diff_snapshots
from jax_errors.db.queries import find_snapshot, site_at, snapshot_sites, snapshot_stats

SERVER_ENV = "JAX_ERRORS_TEST_POSTGRES"


@pytest.fixture
def postgres_url():
    server = os.environ.get(SERVER_ENV)
    if not server:
        pytest.skip(f"no PostgreSQL server: set {SERVER_ENV} to a URL of one (scripts/test.sh does)")
    name = f"jax_errors_{uuid.uuid4().hex[:12]}"
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    with admin.connect() as connection:
        connection.execute(text(f'CREATE DATABASE "{name}"'))
    yield make_url(server).set(database=name).render_as_string(hide_password=False)
    with admin.connect() as connection:
        connection.execute(text(f'DROP DATABASE "{name}" WITH (FORCE)'))
    admin.dispose()


def test_crawl_and_query_on_postgres(postgres_url, git_repo):
    git_repo.commit({"jax/core.py": "def f(x):\n    raise ValueError(f'bad {x}')\n"}, "one", tag="jax-v0.0.1")
    git_repo.commit({"jax/core.py": "# moved\n\ndef f(x):\n    raise ValueError(f'bad {x}')\n"}, "two",
                    tag="jax-v0.0.2")
    engine = open_database(postgres_url)
    with JaxRepository(git_repo.path) as repository:
        for tag in ("jax-v0.0.1", "jax-v0.0.2"):
            crawl_snapshot(engine, repository.snapshot(tag))
    with Session(engine) as session:
        old, new = find_snapshot(session, "jax-v0.0.1"), find_snapshot(session, "jax-v0.0.2")
        first, moved = site_at(session, old, "jax/core.py", 2), site_at(session, new, "jax/core.py", 4)
        assert first.error_id == moved.error_id
        assert first.site.template_parts == [["lit", "bad "], ["expr", "x"]]
        diff = diff_snapshots(session, old, new)
        assert (diff.added, diff.removed, diff.reworded) == ([], [], [])
    assert [s.sites for s in snapshot_stats(engine)] == [1, 1]
    # Both read the catalogue in one repeatable-read transaction there.
    from jax_errors.lookup.build import open_index
    from jax_errors.site_gen.catalogue import load_catalogue

    [best, *_] = open_index(engine).lookup("ValueError: bad 3")
    assert (best.entry.error_id, best.how) == (first.error_id, "template")
    assert list(load_catalogue(engine).cards) == [first.error_id]
    engine.dispose()


def test_postgres_keeps_what_sqlite_keeps(postgres_url, git_repo):
    """A NUL in a message, a tag over 64 characters, a case name over 128: both back ends take them."""
    from datetime import datetime

    from jax_errors.db.models import Reproduction

    long_tag = "jax-v0.0.1-" + "x" * 90
    git_repo.commit({"jax/nul.py": 'def f():\n    raise ValueError("nul \\x00 inside")\n'}, "nul", tag=long_tag)
    engine = open_database(postgres_url)
    with JaxRepository(git_repo.path) as repository:
        report = crawl_snapshot(engine, repository.snapshot(long_tag))
    assert report.sites == 1
    with Session(engine) as session, session.begin():
        session.add(Reproduction(case_name="c" * 200, jax_version="0.0.1+" + "g" * 60, status="no-error",
                                 expected="ValueError", frames=[], fixed_ok=True, duration=0.1,
                                 ran_at=datetime(2026, 12, 3)))
    with Session(engine) as session:
        [site] = [located.site for located in snapshot_sites(session, find_snapshot(session, long_tag))]
        assert site.template == "nul \u2400 inside"
    engine.dispose()


def test_two_crawls_storing_the_same_blob_at_once_both_land(postgres_url, git_repo):
    """The second crawl's INSERT waits on the first's uncommitted blob, fails on its key, and starts again."""
    import threading

    from jax_errors.crawler.crawl import scan_blob
    from jax_errors.crawler.store import store_blob

    shared = "def f(x):\n    raise ValueError(f'bad {x}')\n"
    first = git_repo.commit({"jax/core.py": shared}, "one")
    engine = open_database(postgres_url)
    holding = Session(engine)
    holding.begin()
    store_blob(holding, scan_blob("jax/core.py", git_blob_sha(shared.encode()), shared.encode()))
    holding.flush()  # the blob row is written and locked, not committed
    result: dict = {}

    def crawl_meanwhile():
        with JaxRepository(git_repo.path) as repository:
            result["report"] = crawl_snapshot(open_database(postgres_url), repository.snapshot(first))

    thread = threading.Thread(target=crawl_meanwhile)
    thread.start()
    thread.join(timeout=2)
    assert thread.is_alive()  # waiting on the uncommitted row
    holding.commit()
    holding.close()
    thread.join(timeout=60)
    assert result["report"].sites == 1 and result["report"].parsed == 0  # it found the blob stored
    engine.dispose()


def test_the_call_graph_on_postgres(postgres_url, git_repo):
    from test_raised_by import EXPECTED, PACKAGE, entries

    git_repo.commit(PACKAGE, "a package", tag="jax-v0.0.1")
    engine = open_database(postgres_url)
    with JaxRepository(git_repo.path) as repository:
        crawl_snapshot(engine, repository.snapshot("jax-v0.0.1"))
        crawl_snapshot(engine, repository.snapshot("jax-v0.0.1"), force=True)  # replaces what it wrote
    assert entries(engine) == EXPECTED
    engine.dispose()


def test_the_first_parent_history_on_postgres(postgres_url, git_repo, fresh_db):
    """The same commits crawled into PostgreSQL and SQLite store the same spans, events and releases."""
    from sqlalchemy import select

    from jax_errors.crawler.history import crawl_history
    from jax_errors.db.models import ErrorSpan, HistoryCommit, HistoryEvent

    git_repo.commit({"jax/core.py": "def f(x):\n    raise ValueError(f'bad {x}')\n"}, "one")
    git_repo.commit({"jax/core.py": "def f(x):\n    raise ValueError(f'very bad {x}')\n"}, "two", tag="jax-v0.0.1")
    git_repo.commit({"jax/other.py": "def g():\n    raise TypeError('no')\n"}, "three")
    git_repo.commit({"jax/core.py": "X = 1\n"}, "four")

    def stored(engine):
        with Session(engine) as session:
            return (session.execute(select(HistoryCommit.position, HistoryCommit.commit, HistoryCommit.releases)
                                    .order_by(HistoryCommit.position)).all(),
                    sorted(session.execute(select(ErrorSpan.error_id, ErrorSpan.path, ErrorSpan.first_position,
                                                  ErrorSpan.last_position)).all(), key=repr),
                    sorted(session.execute(select(HistoryEvent.position, HistoryEvent.kind, HistoryEvent.error_id,
                                                  HistoryEvent.previous_id)).all(), key=repr))

    engine = open_database(postgres_url)
    with JaxRepository(git_repo.path) as repository:
        crawl_history(engine, repository, "HEAD~1")
        crawl_history(engine, repository, "HEAD")  # goes on from the commit stored last
        crawl_history(fresh_db, repository, "HEAD")
    on_postgres = stored(engine)
    assert on_postgres == stored(fresh_db)
    commits, spans, events = on_postgres
    assert [c.releases for c in commits] == [[], ["jax-v0.0.1"], [], []]
    assert [(e.position, e.kind) for e in events] == [(2, "reworded"), (3, "added"), (4, "removed")]
    engine.dispose()


def test_folding_commit_snapshots_on_postgres(postgres_url, git_repo, fresh_db):
    """A refresh folds the commit snapshot no card cites the same way on PostgreSQL as on SQLite."""
    from sqlalchemy import select

    from jax_errors.crawler.history import crawl_history
    from jax_errors.crawler.refresh import refresh
    from jax_errors.db.models import Occurrence, Snapshot

    one = git_repo.commit({"jax/core.py": "def f(x):\n    raise ValueError(f'bad {x}')\n"}, "one", tag="jax-v0.0.1")
    two = git_repo.commit({"jax/other.py": "def g():\n    raise TypeError('no')\n"}, "two")
    three = git_repo.commit({"jax/other.py": "# g's line moves: its card cites this commit now\n\n"
                                             "def g():\n    raise TypeError('no')\n"}, "three")

    def placed(engine):
        with Session(engine) as session:
            return sorted(session.execute(select(Snapshot.commit, Occurrence.error_id, Occurrence.path)
                                          .join(Snapshot, Snapshot.id == Occurrence.snapshot_id)).all())

    engine = open_database(postgres_url)
    with JaxRepository(git_repo.path) as repository:
        for catalogue in (engine, fresh_db):
            crawl_history(catalogue, repository, one)
            crawl_snapshot(catalogue, repository.snapshot(one))
            assert refresh(catalogue, repository, two, fold=True).folded == []  # the release stays
            assert refresh(catalogue, repository, three, fold=True).folded == [two]
    assert placed(engine) == placed(fresh_db)
    assert {commit for commit, _, _ in placed(engine)} == {one, three}
    engine.dispose()
