"""The catalogue on PostgreSQL, from a URL alone (scripts/test.sh starts a local server)."""

import os
import uuid

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.orm import Session

from jax_errors.crawler.crawl import crawl_snapshot
from jax_errors.crawler.repository import JaxRepository
from jax_errors.db.engine import open_database
from jax_errors.db.history import diff_snapshots
from jax_errors.db.queries import find_snapshot, site_at, snapshot_stats

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
    from jax_errors.lookup.index import open_index
    from jax_errors.site_gen.catalogue import load_catalogue

    [best, *_] = open_index(engine).lookup("ValueError: bad 3")
    assert (best.entry.error_id, best.how) == (first.error_id, "template")
    assert list(load_catalogue(engine).cards) == [first.error_id]
    engine.dispose()
