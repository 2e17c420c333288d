"""The schema exists only through Alembic, and the models match it."""

import re

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
    with pytest.raises(DatabaseError, match=f"is at revision {head_revision()}, not before 0001"):
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
    import sqlalchemy as sa
    from sqlalchemy import func, select
    from sqlalchemy.orm import Session

    from jax_errors.crawler.crawl import crawl_snapshot
    from jax_errors.crawler.repository import JaxRepository
    from jax_errors.db.models import Occurrence

    def occurrences() -> int:
        """Rows of the per-snapshot table before 0006, spans read per snapshot after."""
        engine = make_engine(f"sqlite:///{db_path}")
        with Session(engine) as session:
            if "occurrences" in inspect(engine).get_table_names():
                return session.scalar(select(func.count()).select_from(sa.table("occurrences")))
            return session.scalar(select(func.count()).select_from(Occurrence))

    git_repo.commit(two_errors, "two errors", tag="jax-v0.0.1")
    with JaxRepository(git_repo.path) as repository:
        crawl_snapshot(open_database(db_path), repository.snapshot("jax-v0.0.1"))
    # A catalogue at 0003: crawled by this code (which writes tables 0003 lacks), then taken back.
    assert downgrade_database(db_path, "0003") == "0003" and occurrences() == 2
    assert upgrade_database(db_path) == head_revision()
    assert occurrences() == 2
    assert downgrade_database(db_path, "0003") == "0003" and occurrences() == 2


def filled_rows(engine) -> dict[str, list[tuple]]:
    """Put two rows in every table the schema has (foreign keys pointing at the rows of their tables); every row, read back."""
    import datetime

    from sqlalchemy import JSON, Boolean, DateTime, Float, Integer, MetaData, String, insert, select

    metadata = MetaData()
    metadata.reflect(engine)
    written: dict[str, list[dict]] = {}

    def value(table, column, k: int):
        for key in column.foreign_keys:
            return written[key.column.table.name][k][key.column.name]
        kind = column.type
        if isinstance(kind, Boolean):
            return bool(k)
        if isinstance(kind, Integer):
            return k + 1
        if isinstance(kind, Float):
            return k + 0.5
        if isinstance(kind, DateTime):
            return datetime.datetime(2026, 1, 1 + k, 12, 0)
        if isinstance(kind, JSON):
            return [f"{table.name}.{column.name}", k]
        if isinstance(kind, String):  # Text too
            return f"{k}{table.name}.{column.name}"[:kind.length or None]
        raise AssertionError(f"no test value for {table.name}.{column.name} of type {kind!r}")

    rows = {}
    with engine.begin() as connection:
        for table in metadata.sorted_tables:
            if table.name == "alembic_version":
                continue
            written[table.name] = [{c.name: value(table, c, k) for c in table.columns} for k in range(2)]
            connection.execute(insert(table), written[table.name])
        for table in metadata.sorted_tables:
            if table.name in written:
                rows[table.name] = [tuple(row) for row in connection.execute(
                    select(*table.columns).order_by(*table.primary_key.columns))]
    return rows


def rows_now(engine, tables: dict[str, list[tuple]]) -> dict[str, list[tuple]]:
    """The rows of these tables as they are now, read with the columns they had (by name)."""
    from sqlalchemy import MetaData, select

    metadata = MetaData()
    metadata.reflect(engine)
    now = {}
    with engine.connect() as connection:
        for name, before in tables.items():
            table = metadata.tables[name]
            now[name] = [tuple(row) for row in connection.execute(
                select(*table.columns).order_by(*table.primary_key.columns))]
    return now


# The tables 0006 turned into spans, with their columns after `id`.
SPANNED = {"snapshot_files": ("snapshot_id", "path", "blob_sha"),
           "occurrences": ("snapshot_id", "site_id", "path", "error_id")}


def per_snapshot_rows(engine, name: str, columns: tuple[str, ...]) -> list[tuple]:
    from sqlalchemy import select
    from sqlalchemy.orm import Session

    from jax_errors.db.models import Occurrence, SnapshotFile

    model = {"snapshot_files": SnapshotFile, "occurrences": Occurrence}[name]
    with Session(engine) as session:
        return sorted(tuple(row) for row in session.execute(select(*(getattr(model, c) for c in columns))))


def every_revision() -> list[str]:
    """Every migration's revision, oldest first."""
    from alembic.script import ScriptDirectory

    from jax_errors.db.engine import alembic_config

    return [script.revision for script in reversed(list(ScriptDirectory.from_config(alembic_config("sqlite://"))
                                                         .walk_revisions()))]


@pytest.mark.parametrize("revision", every_revision())
def test_upgrading_from_every_revision_keeps_every_row(db_path, revision):
    """Every table of the older schema, two rows each (linked by their foreign keys), comes through the upgrade."""
    upgrade_database(db_path, revision)
    engine = make_engine(f"sqlite:///{db_path}")
    before = filled_rows(engine)
    assert before and all(len(rows) == 2 for rows in before.values())
    assert upgrade_database(db_path) == head_revision()
    now = rows_now(engine, {name: rows for name, rows in before.items() if name not in SPANNED})
    for name, columns in SPANNED.items():
        if name in before:  # rows of one snapshot each, read back per snapshot from their spans (ids aside)
            assert per_snapshot_rows(engine, name, columns) == sorted(row[1:] for row in before[name]), name
            before.pop(name)
    for name, rows in before.items():
        columns = len(rows[0])  # later migrations may add columns at the end; none so far
        assert [row[:columns] for row in now[name]] == rows, name


def stamp(db_path, revision: str) -> None:
    with make_engine(f"sqlite:///{db_path}").begin() as connection:
        connection.exec_driver_sql("UPDATE alembic_version SET version_num = ?", (revision,))


def test_a_database_of_a_newer_jax_errors_is_one_line_and_left_alone(db_path):
    from click.testing import CliRunner

    from jax_errors.cli import cli

    open_database(db_path)
    stamp(db_path, "0099_from_the_future")
    with pytest.raises(DatabaseError, match=r"was made by a newer jax-errors \(schema revision '0099_from_the_future'; "
                                            rf"this one knows up to {head_revision()}\): upgrade jax-errors to use it"):
        open_database(db_path)
    for args in (["stats"], ["lookup", "anything"], ["db", "upgrade"], ["db", "downgrade", "--revision", "0001", "--yes"]):
        result = CliRunner().invoke(cli, [*args, "--db", str(db_path)])
        assert result.exit_code == 1 and result.output.count("\n") == 1, result.output
        assert "made by a newer jax-errors" in result.output
    assert current_revision(make_engine(f"sqlite:///{db_path}")) == "0099_from_the_future"


@pytest.fixture
def read_only():
    """`read_only(path)`: make a file or folder read-only for this process, even as root (`chattr +i`); undone after."""
    import os
    import shutil
    import subprocess

    made = []

    def make(path):
        if os.geteuid() == 0:
            if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(path)]).returncode != 0:
                pytest.skip("running as root where `chattr +i` cannot make a file read-only")
        else:
            path.chmod(0o555 if path.is_dir() else 0o444)
        made.append(path)

    yield make
    for path in reversed(made):
        if os.geteuid() == 0:
            subprocess.run(["chattr", "-i", str(path)], check=True)
        else:
            path.chmod(0o755 if path.is_dir() else 0o644)


def crawled_catalogue(db_path, git_repo, two_errors) -> None:
    from jax_errors.crawler.crawl import crawl_snapshot
    from jax_errors.crawler.repository import JaxRepository
    from jax_errors.db.engine import copy_database

    git_repo.commit(two_errors, "two errors", tag="jax-v0.0.1")
    scratch = db_path.with_name("scratch.db")
    with JaxRepository(git_repo.path) as repository:
        crawl_snapshot(open_database(scratch), repository.snapshot("jax-v0.0.1"))
    copy_database(scratch, db_path)  # one file, no write-ahead log beside it


@pytest.mark.parametrize("what", ["file", "folder"])
def test_a_read_only_catalogue_is_read_and_a_write_is_one_line(db_path, git_repo, two_errors, read_only, what):
    from click.testing import CliRunner

    from jax_errors.cli import cli

    crawled_catalogue(db_path, git_repo, two_errors)
    read_only(db_path.parent if what == "folder" else db_path)
    runner = CliRunner()
    stats = runner.invoke(cli, ["stats", "--db", str(db_path)])
    assert stats.exit_code == 0 and stats.output.startswith("jax-v0.0.1"), stats.output
    found = runner.invoke(cli, ["lookup", "x must be non-negative, got -1", "--db", str(db_path)])
    assert found.exit_code == 0 and "ValueError jax/core.py:3" in found.output, found.output
    crawl = runner.invoke(cli, ["crawl", "--repo", str(git_repo.path), "--force", "--jobs", "1", "--db", str(db_path)])
    # stderr is no terminal here, so the crawl's progress is logged as lines before the error (`LineProgress`)
    lines = crawl.output.splitlines()
    assert all(re.fullmatch(r"\[1/1\] jax-v0\.0\.1: \d+/\d+ \(0:\d\d\).*", progress) for progress in lines[:-1]), lines
    line = lines[-1]
    assert crawl.exit_code == 1 and line == (f"Error: cannot write to database {db_path}: it is "
                                             "read-only, or its folder is (attempt to write a readonly database)")


def test_a_new_catalogue_in_a_read_only_folder_is_one_line(tmp_path, read_only):
    from click.testing import CliRunner

    from jax_errors.cli import cli

    folder = tmp_path / "locked"
    folder.mkdir()
    read_only(folder)
    result = CliRunner().invoke(cli, ["db", "upgrade", "--db", str(folder / "new.db")])  # a command that may create one
    assert result.exit_code == 1 and result.output.count("\n") == 1, result.output
    assert result.output == (f"Error: cannot open database sqlite:///{folder / 'new.db'}: unable to open database "
                             "file (is it a folder, or is its folder missing or read-only?)\n")


def test_json_columns_are_read_by_orjson_and_what_only_python_reads_still_reads(db_path, monkeypatch):
    """JSON columns go through `read_json`: orjson, falling back to Python's reader for what orjson refuses."""
    import math
    from datetime import datetime

    import orjson
    from sqlalchemy import select, text
    from sqlalchemy.orm import Session

    from jax_errors.db.models import Reproduction

    read_by_orjson = []
    monkeypatch.setattr(orjson, "loads", lambda text, loads=orjson.loads: read_by_orjson.append(text) or loads(text))
    engine = open_database(db_path)
    with Session(engine) as session, session.begin():
        session.add(Reproduction(case_name="nan", jax_version="0.0", status="reproduced", expected="x",
                                 frames=[{"line": 1}], observed_message="m", fixed_ok=False, duration=0.0,
                                 ran_at=datetime(2026, 1, 1)))
    with engine.begin() as connection:  # as Python's json.dumps writes a float NaN
        connection.execute(text("UPDATE reproductions SET frames = '[{\"score\": NaN}]'"))
    with Session(engine) as session:
        [frames] = session.scalars(select(Reproduction.frames)).all()
    assert math.isnan(frames[0]["score"])
    assert read_by_orjson == ['[{"score": NaN}]']  # tried first, and refused
