"""Open the catalogue database from a URL or path, upgrading its schema on first use."""

from __future__ import annotations

import json
import os
import re
import sqlite3
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

import alembic.util
import orjson
import sqlalchemy.exc
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, create_engine, event, text
from sqlalchemy.orm import Session

from jax_errors.db.location import DEFAULT_DB, is_url
from jax_errors.exceptions import DatabaseError

# How long a statement waits for another process's write to end before it fails.
BUSY_TIMEOUT_MS = int(os.environ.get("JAX_ERRORS_BUSY_TIMEOUT_MS", "60000"))
# The advisory lock every writer takes on PostgreSQL (an arbitrary number of this project's own).
WRITE_LOCK_KEY = 0x6A6178
MIGRATIONS = Path(__file__).parent.parent / "migrations"


def database_url(value: str | Path) -> str:
    """A SQLAlchemy URL: given as is (`postgresql+psycopg://...`), or a SQLite file path.

    A file in a folder that cannot be written is opened read-only: SQLite could not make its
    write-ahead log and shared-memory files beside it. Without them it is read as it stands
    (`immutable`), which is what it is there; a command that writes then fails in one line.
    """
    text = str(value)
    if is_url(text):
        return text
    path = Path(text).expanduser().resolve()
    if path.is_file() and not os.access(path.parent, os.W_OK):
        shared = path.with_name(path.name + "-shm").exists()
        return f"sqlite:///file:{quote(str(path))}?mode=ro{'' if shared else '&immutable=1'}&uri=true"
    return f"sqlite:///{path}"


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def make_engine(url: str) -> Engine:
    try:
        engine = create_engine(url, json_deserializer=read_json)
    except (sqlalchemy.exc.ArgumentError, ImportError) as error:
        raise DatabaseError(f"cannot open database {_safe(url)}: {error_line(error)}") from error
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def read_json(text: str) -> Any:
    """A JSON column's value: read by orjson, several times faster (a catalogue has tens of thousands),
    or, for what only Python's reader takes (NaN, say), by that."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    cursor = dbapi_connection.cursor()
    # First, so that what follows (switching a new file to WAL, say) waits for another process too.
    cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA foreign_keys=ON")
    # Write-ahead logging: readers see one state and never block the one writer (a build during a crawl).
    _switch_to_wal(cursor)  # a read-only file keeps its mode, without an error
    cursor.close()


def _switch_to_wal(cursor) -> None:
    """Set WAL mode, retrying while another process holds the lock the switch needs.

    SQLite may answer "database is locked" to this pragma at once, without calling the busy
    handler: when several processes open a new file together, one of them switching it can
    find another's lock (seen in about 1 of 150 rounds of six openers). So it waits here, up
    to the same timeout.
    """
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            return
        except sqlite3.OperationalError as error:
            if not _is_locked(error) or time.monotonic() > deadline:
                raise
            time.sleep(0.005)


def copy_database(source: str | Path, target: str | Path) -> None:
    """Copy a SQLite catalogue file whole, what its write-ahead log holds included (a file copy would miss it)."""
    from contextlib import closing

    # closing: a sqlite3 connection's own `with` commits but leaves it open.
    with closing(sqlite3.connect(source)) as original, closing(sqlite3.connect(target)) as copy:
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


def begin_writing(session: Session, *, waiting: Callable[[], None] | None = None) -> None:
    """Begin `session`'s transaction holding the database's write lock, waiting for another writer first.

    Call it before the session reads anything. On SQLite, a transaction that reads and then
    writes cannot wait for the lock: if another process committed in between, its first write
    fails at once ("database is locked"). Taken first, the lock is waited for, up to
    BUSY_TIMEOUT_MS, and `waiting()` is called once when another process holds it. On
    PostgreSQL it takes a transaction-level advisory lock that every writer takes.

    Raises:
        DatabaseError: another process held the lock longer than BUSY_TIMEOUT_MS, or the database is read-only.
    """
    if session.get_bind().dialect.name == "postgresql":
        # Spans are read, then cut and joined: two writers must not place snapshots at once.
        session.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": WRITE_LOCK_KEY})
        return
    if session.get_bind().dialect.name != "sqlite":
        return
    driver = session.connection().connection.driver_connection
    try:
        try:
            _begin_immediate(driver, timeout_ms=0)
        except sqlite3.OperationalError as error:
            if not _is_locked(error):
                raise
            if waiting is not None:
                waiting()
            _begin_immediate(driver, timeout_ms=BUSY_TIMEOUT_MS)
    except sqlite3.OperationalError as error:
        where = _where(session.get_bind().url)
        if _is_locked(error):
            raise DatabaseError(f"another process kept database {where} locked for over {BUSY_TIMEOUT_MS / 1000:g} s "
                                "(JAX_ERRORS_BUSY_TIMEOUT_MS); nothing was written") from error
        if "readonly database" in str(error):
            raise DatabaseError(f"cannot write to database {where}: it is read-only, or its folder is "
                                f"({error_line(error)})") from error
        raise DatabaseError(f"cannot write to database {where}: {error_line(error)}") from error


def _where(url: sqlalchemy.engine.URL) -> str:
    """The database as a message names it: a SQLite file's path, else its URL without the password."""
    if url.get_backend_name() == "sqlite" and url.database:
        return unquote(url.database.removeprefix("file:"))
    return url.render_as_string(hide_password=True)


def _begin_immediate(driver, *, timeout_ms: int) -> None:
    driver.execute(f"PRAGMA busy_timeout={timeout_ms}")
    try:
        driver.execute("BEGIN IMMEDIATE")
    finally:
        driver.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
    # A read-only file takes the lock all the same; writing its version number back as it is tells now.
    version = driver.execute("PRAGMA user_version").fetchone()[0]
    driver.execute(f"PRAGMA user_version={int(version)}")


def _is_locked(error: Exception) -> bool:
    return "database is locked" in str(error) or "database is busy" in str(error)


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
        # IMMEDIATE: the write lock before Alembic reads the revision, so that two processes opening a
        # new file migrate one after the other (a deferred BEGIN fails at the first write instead).
        connection.exec_driver_sql("BEGIN IMMEDIATE")
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
        if "readonly database" in error_line(error):
            raise DatabaseError(f"cannot write to database {_safe(url)}: it is read-only, or its folder is "
                                f"({error_line(error)})") from error
        if "unable to open database file" in error_line(error):  # SQLite's words for a missing or locked folder
            raise DatabaseError(f"cannot open database {_safe(url)}: unable to open database file (is it a "
                                "folder, or is its folder missing or read-only?)") from error
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
        _refuse_unknown(url, current)
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
        _refuse_unknown(url, current)
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
        _refuse_unknown(url, current_revision(engine))
        downgrade(engine, revision)
        return current_revision(engine)


def _refuse_unknown(url: str, current: str | None) -> None:
    """Raise when the database is at a schema revision these migrations do not have: a newer jax-errors made it."""
    if current is not None and current not in _revision_order():
        raise DatabaseError(f"database {_safe(url)} was made by a newer jax-errors (schema revision {current!r}; "
                            f"this one knows up to {head_revision()}): upgrade jax-errors to use it")


def _revision_order() -> list[str]:
    """Every migration's revision, oldest first."""
    scripts = ScriptDirectory.from_config(alembic_config("sqlite://"))
    return [script.revision for script in reversed(list(scripts.walk_revisions()))]


def _is_ahead(revision: str, current: str) -> bool:
    """Whether `revision` comes after `current` in the migrations (other spellings are left to Alembic)."""
    order = _revision_order()
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
