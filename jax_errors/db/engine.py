"""Open the catalogue database from a URL or path, upgrading its schema on first use."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import alembic.util
import sqlalchemy.exc
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.orm import Session

from jax_errors.db.location import DEFAULT_DB
from jax_errors.exceptions import DatabaseError

# How long a statement waits for another process's write to end before it fails.
BUSY_TIMEOUT_MS = int(os.environ.get("JAX_ERRORS_BUSY_TIMEOUT_MS", "60000"))
MIGRATIONS = Path(__file__).parent.parent / "migrations"


def database_url(value: str | Path) -> str:
    """A SQLAlchemy URL: given as is (`postgresql+psycopg://...`), or a SQLite file path."""
    text = str(value)
    if "://" in text:
        return text
    return f"sqlite:///{Path(text).expanduser().resolve()}"


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def make_engine(url: str) -> Engine:
    try:
        engine = create_engine(url)
    except (sqlalchemy.exc.ArgumentError, ImportError) as error:
        raise DatabaseError(f"cannot open database {_safe(url)}: {error_line(error)}") from error
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    # Write-ahead logging: readers see one state and never block the one writer (a build during a crawl).
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    cursor.close()


def copy_database(source: str | Path, target: str | Path) -> None:
    """Copy a SQLite catalogue file whole, what its write-ahead log holds included (a file copy would miss it)."""
    import sqlite3

    with sqlite3.connect(source) as original, sqlite3.connect(target) as copy:
        original.backup(copy)


def consistent_reads(session: Session) -> None:
    """Make every read of `session`, until it ends, see the database as it was at its first read.

    Call it before the session reads anything. A build or a lookup reads the catalogue in many
    queries; a crawl committing between two of them would otherwise give it half a snapshot.
    """
    if session.get_bind().dialect.name == "sqlite":
        session.connection().exec_driver_sql("BEGIN")  # pysqlite would not begin one for reads
    else:
        session.connection(execution_options={"isolation_level": "REPEATABLE READ"})


def head_revision() -> str | None:
    return ScriptDirectory.from_config(alembic_config("sqlite://")).get_current_head()


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Run the Alembic migrations up to `revision` on this engine's database, all or nothing."""
    _migrate(engine, command.upgrade, revision)


def downgrade(engine: Engine, revision: str) -> None:
    """Run the Alembic migrations back down to `revision` (`base`: an empty schema), all or nothing.

    Going back drops the tables (and the data) that later migrations added.
    """
    _migrate(engine, command.downgrade, revision)


def _migrate(engine: Engine, step, revision: str) -> None:
    config = alembic_config(engine.url.render_as_string(hide_password=False))
    with _one_transaction(engine) as connection:
        config.attributes["connection"] = connection
        step(config, revision)


@contextmanager
def _one_transaction(engine: Engine) -> Iterator[Connection]:
    """A connection whose every statement, DDL included, commits together or not at all.

    SQLite's DDL is transactional, but pysqlite begins a transaction only before DML: a migration
    that fails after its first CREATE TABLE would leave that table behind, and every later upgrade
    would fail on it. So on SQLite the transaction is begun and ended by hand, with foreign keys
    off while it runs, as SQLite's own procedure for altering a table has it: a batch migration
    copies a table and drops the old one, and with them on, the drop would cascade to every row
    that refers to it (all occurrences of all snapshots). The keys are checked before the commit.
    """
    if engine.dialect.name != "sqlite":
        with engine.begin() as connection:
            yield connection
        return
    with engine.connect() as connection:
        connection = connection.execution_options(isolation_level="AUTOCOMMIT")
        connection.exec_driver_sql("PRAGMA foreign_keys=OFF")  # a no-op inside a transaction: before BEGIN
        connection.exec_driver_sql("BEGIN")
        try:
            yield connection
            broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
            if broken:
                raise DatabaseError(f"the migration broke {len(broken)} foreign keys, e.g. {tuple(broken[0])}")
        except BaseException:
            connection.exec_driver_sql("ROLLBACK")
            raise
        else:
            connection.exec_driver_sql("COMMIT")
        finally:
            connection.exec_driver_sql("PRAGMA foreign_keys=ON")


@contextmanager
def _database_errors(url: str) -> Iterator[None]:
    """Turn the driver's errors into one-line DatabaseErrors."""
    try:
        yield
    except sqlalchemy.exc.SQLAlchemyError as error:
        raise DatabaseError(f"cannot use database {_safe(url)}: {error_line(error)}") from error
    except alembic.util.CommandError as error:
        raise DatabaseError(f"cannot migrate database {_safe(url)}: {error_line(error)}") from error


def open_database(value: str | Path = DEFAULT_DB, *, migrate: bool = True) -> Engine:
    """An engine on the catalogue, its schema upgraded to the newest migration.

    Raises:
        DatabaseError: the database cannot be reached, is not a database, or is newer than this code.
    """
    url = database_url(value)
    engine = make_engine(url)
    with _database_errors(url):
        current, head = current_revision(engine), head_revision()
        if current != head:
            if not migrate:
                raise DatabaseError(f"database {_safe(url)} is at revision {current}, not {head}")
            upgrade(engine)
    return engine


def upgrade_database(value: str | Path, revision: str = "head") -> str | None:
    """Upgrade the schema to `revision`; returns the revision reached.

    Raises:
        DatabaseError: `revision` is older than the database's (going back is `downgrade_database`).
    """
    url = database_url(value)
    engine = make_engine(url)
    with _database_errors(url):
        current = current_revision(engine)
        if current is not None and revision != "head" and not _is_ahead(revision, current):
            raise DatabaseError(f"database {_safe(url)} is at revision {current}, not before {revision}: "
                                f"`jax-errors db downgrade --revision {revision}` goes back")
        upgrade(engine, revision)
        return current_revision(engine)


def downgrade_database(value: str | Path, revision: str) -> str | None:
    """Downgrade the schema to `revision` (dropping what later migrations added); returns the revision reached."""
    url = database_url(value)
    engine = make_engine(url)
    with _database_errors(url):
        downgrade(engine, revision)
        return current_revision(engine)


def _is_ahead(revision: str, current: str) -> bool:
    """Whether `revision` comes after `current` in the migrations (other spellings are left to Alembic)."""
    scripts = ScriptDirectory.from_config(alembic_config("sqlite://"))
    order = [script.revision for script in reversed(list(scripts.walk_revisions()))]  # oldest first
    if revision == "base":
        return False
    if revision not in order or current not in order:
        return True
    return order.index(revision) > order.index(current)


def database_revisions(value: str | Path) -> tuple[str | None, str | None]:
    """The database's schema revision and the newest one this code has."""
    url = database_url(value)
    with _database_errors(url):
        return current_revision(make_engine(url)), head_revision()


def _safe(url: str) -> str:
    """The URL as it may be shown: its password masked, even when the URL does not parse."""
    try:
        return sqlalchemy.engine.make_url(url).render_as_string(hide_password=True)
    except (sqlalchemy.exc.ArgumentError, ValueError):
        return _PASSWORD.sub(r"\1***@", url)


_PASSWORD = re.compile(r"(://[^:/@]*:)[^@]*@")


def error_line(error: Exception) -> str:
    """The first line of a driver (or any) error's message, for one-line reports."""
    orig = getattr(error, "orig", None) or error
    lines = str(orig).strip().splitlines()
    return lines[0] if lines else type(orig).__name__
