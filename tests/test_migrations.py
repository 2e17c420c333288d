"""The schema exists only through Alembic, and the models match it."""

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect

from jax_errors.db.engine import (
    current_revision,
    database_revisions,
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
    assert upgrade_database(db_path, "base") is None
    assert inspect(make_engine(f"sqlite:///{db_path}")).get_table_names() == ["alembic_version"]
    assert upgrade_database(db_path) == head_revision()


def test_open_without_migrate_refuses_an_old_schema(db_path):
    upgrade_database(db_path, "base")
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
