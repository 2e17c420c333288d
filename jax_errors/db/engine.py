"""Open the catalogue database from a URL or path, upgrading its schema on first use."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import alembic.util
import sqlalchemy.exc
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, create_engine, event

from jax_errors.exceptions import DatabaseError

DEFAULT_DB = "jax_errors.db"
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
        raise DatabaseError(f"cannot open database {url}: {error}") from error
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    return engine


def _sqlite_pragmas(dbapi_connection, _record) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def head_revision() -> str | None:
    return ScriptDirectory.from_config(alembic_config("sqlite://")).get_current_head()


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Run the Alembic migrations up to `revision` on this engine's database."""
    config = alembic_config(engine.url.render_as_string(hide_password=False))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        if revision.startswith("-") or revision == "base":
            command.downgrade(config, revision)
        else:
            command.upgrade(config, revision)


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
    """Upgrade (or downgrade) the schema to `revision`; returns the revision reached."""
    url = database_url(value)
    engine = make_engine(url)
    with _database_errors(url):
        upgrade(engine, revision)
        return current_revision(engine)


def database_revisions(value: str | Path) -> tuple[str | None, str | None]:
    """The database's schema revision and the newest one this code has."""
    url = database_url(value)
    with _database_errors(url):
        return current_revision(make_engine(url)), head_revision()


def _safe(url: str) -> str:
    return sqlalchemy.engine.make_url(url).render_as_string(hide_password=True)


def error_line(error: Exception) -> str:
    """The first line of a driver (or any) error's message, for one-line reports."""
    orig = getattr(error, "orig", None) or error
    lines = str(orig).strip().splitlines()
    return lines[0] if lines else type(orig).__name__
