"""Where `explain` reads its cards from and where their links point: arguments, environment, a settings file.

First found wins, field by field:

- the index, a file `jax-errors build` writes (`api/explain.json`; the site folder holding it, or an
  http(s) URL of one, fetched once into the cache folder, also do): the argument,
  `JAX_ERRORS_EXPLAIN_INDEX`, `index` in the settings file;
- else the catalogue database: the argument, `JAX_ERRORS_DB`, `db` in the settings file,
  `jax_errors.db`. A database or index given as an argument wins over both kinds found elsewhere;
- the card links' base: the argument, `JAX_ERRORS_BASE_URL`, `base_url` in the settings file, the one
  the index recorded (`jax-errors build --base-url`), else none: links are card paths (`errors/<id>.html`);
- the curated text a database's cards show: the arguments, `knowledge` and `cases` in the settings
  file, the folders `knowledge` and `cases`.

The settings file is TOML, at `$JAX_ERRORS_CONFIG`, by default `$XDG_CONFIG_HOME/jax-errors/config.toml`
(`~/.config/jax-errors/config.toml`); its settings are in an `[explain]` table, and relative paths in
it are read from its folder. A missing file is no error.

This module reads only the standard library: `install()` resolves nothing until the first exception.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from jax_errors.db.location import DEFAULT_DB, is_url
from jax_errors.exceptions import SettingsFileError

INDEX_ENV = "JAX_ERRORS_EXPLAIN_INDEX"
DB_ENV = "JAX_ERRORS_DB"
BASE_URL_ENV = "JAX_ERRORS_BASE_URL"
CONFIG_ENV = "JAX_ERRORS_CONFIG"
TABLE = "explain"
_TEXT_KEYS = ("index", "db", "base_url", "knowledge", "cases")
_PATH_KEYS = ("index", "db", "knowledge", "cases")


@dataclass(frozen=True)
class ExplainSettings:
    """Where cards come from: an index file when `index` is set, else the database `db`."""

    index: str | None = None  # api/explain.json, a built site folder, or an http(s) URL
    db: str = DEFAULT_DB  # a SQLite path or an SQLAlchemy URL
    base_url: str | None = None  # None: the index's own, else relative card paths
    knowledge_dir: Path = Path("knowledge")  # read with a database only: an index holds its curated text
    cases_dir: Path = Path("cases")


def read_settings(*, index: str | None = None, db: str | None = None, base_url: str | None = None,
                  knowledge: str | Path | None = None, cases: str | Path | None = None,
                  environ: Mapping[str, str] | None = None) -> ExplainSettings:
    """The settings the arguments, the environment and the settings file give, in that order.

    Raises:
        SettingsFileError: the settings file is not TOML, or a setting in it is not a string.
    """
    environ = os.environ if environ is None else environ
    file = settings_file(environ)
    if index is None and db is None:
        index = environ.get(INDEX_ENV) or file.get("index")
        db = None if index else environ.get(DB_ENV) or file.get("db")
    return ExplainSettings(
        index=index or None, db=db or DEFAULT_DB,
        base_url=base_url or environ.get(BASE_URL_ENV) or file.get("base_url"),
        knowledge_dir=Path(knowledge or file.get("knowledge") or "knowledge"),
        cases_dir=Path(cases or file.get("cases") or "cases"),
    )


def settings_path(environ: Mapping[str, str]) -> Path:
    if environ.get(CONFIG_ENV):
        return Path(environ[CONFIG_ENV])
    config_home = environ.get("XDG_CONFIG_HOME") or Path.home() / ".config"
    return Path(config_home) / "jax-errors" / "config.toml"


def settings_file(environ: Mapping[str, str]) -> dict[str, str]:
    """The `[explain]` table of the settings file, paths made absolute from the file's folder; {} without one.

    Raises:
        SettingsFileError: the file is not TOML, its table is no table, or a setting is not a string.
    """
    path = settings_path(environ)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
        raise SettingsFileError(path, str(error)) from error
    table = data.get(TABLE, {})
    if not isinstance(table, dict):
        raise SettingsFileError(path, f"[{TABLE}] is not a table")
    settings = {}
    for key in _TEXT_KEYS:
        value = table.get(key)
        if value is None:
            continue
        if not isinstance(value, str):
            raise SettingsFileError(path, f"{TABLE}.{key} must be a string")
        settings[key] = _from_folder(path.parent, value) if key in _PATH_KEYS else value
    return settings


def _from_folder(folder: Path, value: str) -> str:
    """A path setting read from the settings file's folder; a URL as it is."""
    if is_url(value):
        return value
    return str(folder / Path(value).expanduser())
