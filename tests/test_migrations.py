"""The schema exists only through Alembic, and the models match it."""

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect

from jax_errors.db.engine import (
    current_revision,
    database_revisions,
    downgrade_database,
    head_revision,
    make_engine,
    open_database,
    upgrade_database,
)
from jax_errors.db.models import Base
from jax_errors.exceptions import DatabaseError


def test_empty_database_upgrades_to_head_and_matches_models(db_path):
    engine = open_database(db_path)
    assert current_revision(engine) == head_revision()
    with engine.connect() as connection:
        diff = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    assert diff == []


def test_downgrade_to_base_and_up_again(db_path):
    open_database(db_path)
    assert downgrade_database(db_path, "base") is None
    assert inspect(make_engine(f"sqlite:///{db_path}")).get_table_names() == ["alembic_version"]
    assert upgrade_database(db_path) == head_revision()


def test_open_without_migrate_refuses_an_old_schema(db_path):
    downgrade_database(db_path, "base")
    with pytest.raises(DatabaseError, match="is at revision None"):
        open_database(db_path, migrate=False)


def test_corrupt_database_is_one_clear_error_and_is_left_alone(db_path):
    db_path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(DatabaseError) as info:
        open_database(db_path)
    assert "\n" not in str(info.value)
    assert "file is not a database" in str(info.value)
    assert db_path.read_bytes() == b"this is not a database" * 100


def test_revisions_report(db_path):
    open_database(db_path)
    assert database_revisions(db_path) == (head_revision(), head_revision())


def table_names(db_path) -> list[str]:
    return sorted(inspect(make_engine(f"sqlite:///{db_path}")).get_table_names())


def test_a_migration_that_fails_halfway_changes_nothing(db_path):
    """0003 creates raises_asserts, then static_links; a stray static_links makes it fail after the first."""
    upgrade_database(db_path, "0002")
    engine = make_engine(f"sqlite:///{db_path}")
    with engine.begin() as connection:
        connection.exec_driver_sql("CREATE TABLE static_links (x INTEGER)")
    before = table_names(db_path)
    with pytest.raises(DatabaseError, match="static_links already exists"):
        upgrade_database(db_path)
    assert table_names(db_path) == before and current_revision(engine) == "0002"
    with engine.begin() as connection:
        connection.exec_driver_sql("DROP TABLE static_links")
    assert upgrade_database(db_path) == head_revision()


def test_going_back_is_a_downgrade_asked_for_with_yes(db_path):
    from click.testing import CliRunner

    from jax_errors.cli import cli

    open_database(db_path)
    with pytest.raises(DatabaseError, match="is at revision 0004, not before 0001"):
        upgrade_database(db_path, "0001")
    runner = CliRunner()
    refused = runner.invoke(cli, ["db", "downgrade", "--revision", "base", "--db", str(db_path)])
    assert refused.exit_code == 2 and "pass --yes" in refused.output
    assert current_revision(make_engine(f"sqlite:///{db_path}")) == head_revision()
    done = runner.invoke(cli, ["db", "downgrade", "--revision", "0001", "--yes", "--db", str(db_path)])
    assert done.exit_code == 0 and done.output == "database at revision 0001\n"


def test_upgrading_a_catalogue_keeps_every_row(db_path, git_repo, two_errors):
    """0004 rebuilds tables on SQLite (batch mode); with foreign keys on, dropping the old snapshots
    table would cascade to every occurrence."""
    from sqlalchemy import func, select
    from sqlalchemy.orm import Session

    from jax_errors.crawler.crawl import crawl_snapshot
    from jax_errors.crawler.repository import JaxRepository
    from jax_errors.db.models import Occurrence

    def occurrences() -> int:
        with Session(make_engine(f"sqlite:///{db_path}")) as session:
            return session.scalar(select(func.count()).select_from(Occurrence))

    git_repo.commit(two_errors, "two errors", tag="jax-v0.0.1")
    upgrade_database(db_path, "0003")
    with JaxRepository(git_repo.path) as repository:
        crawl_snapshot(make_engine(f"sqlite:///{db_path}"), repository.snapshot("jax-v0.0.1"))
    assert occurrences() == 2
    assert upgrade_database(db_path) == head_revision()
    assert occurrences() == 2
    assert downgrade_database(db_path, "0003") == "0003" and occurrences() == 2
