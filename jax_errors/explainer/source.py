"""Where cards come from: an explain index a site build wrote, or the catalogue database itself.

Either way lookup's own index (`lookup.index.LookupIndex`) finds the card, and it loads fast:
a database's index is stored beside it (`lookup.stored`), and an index file, once read, is kept
pickled in the cache folder (`$JAX_ERRORS_CACHE/explain`) until the file changes. An index given
by URL is fetched once into that folder and read from there after; nothing else uses the network.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol

from jax_errors.cache import cache_folder
from jax_errors.db.location import is_url
from jax_errors.exceptions import IndexFileError, NoIndexError
from jax_errors.explainer.artifact import EXPLAIN_PATH, FORMAT, Artifact, read_artifact
from jax_errors.explainer.cards import CardText, card_text
from jax_errors.explainer.settings import ExplainSettings
from jax_errors.lookup.index import LookupIndex
from jax_errors.lookup.stored import stored_build, stored_index

CACHE = "explain"
# An index fetched by URL: how long to wait for it, once. The first exception waits for it too.
FETCH_TIMEOUT_S = float(os.environ.get("JAX_ERRORS_EXPLAIN_FETCH_TIMEOUT", "20"))


class CardSource(Protocol):
    """Lookup's index of a catalogue, and the text of each of its cards."""

    index: LookupIndex
    base_url: str | None

    def card(self, error_id: str) -> CardText | None: ...


@dataclass(frozen=True)
class IndexFileCards:
    """Cards from an explain index (`api/explain.json`): the site's own text, curated through lineage."""

    artifact: Artifact
    base_url: str | None

    @property
    def index(self) -> LookupIndex:
        return self.artifact.index

    def card(self, error_id: str) -> CardText | None:
        entry = self.index.entry(error_id)
        return card_text(entry, self.artifact.cards.get(error_id)) if entry else None


class DatabaseCards:
    """Cards from a catalogue database, with the curated text of the knowledge and cases folders."""

    def __init__(self, index: LookupIndex, base_url: str | None, knowledge_dir: Path, cases_dir: Path) -> None:
        from jax_errors.explainer.curated import CuratedFolders  # YAML and the case reader: only a database needs them

        self.index = index
        self.base_url = base_url
        self.curated = CuratedFolders(knowledge_dir, cases_dir)
        self._cards: dict[str, CardText | None] = {}

    def card(self, error_id: str) -> CardText | None:
        if error_id not in self._cards:
            self._cards[error_id] = self._read(error_id)
        return self._cards[error_id]

    def _read(self, error_id: str) -> CardText | None:
        from jax_errors.explainer.curated import fix_of

        entry = self.index.entry(error_id)
        if entry is None:
            return None
        card = card_text(entry, None)
        knowledge = self.curated.knowledge_about(error_id)
        fix = fix_of(self.curated.case_about(error_id, knowledge.case if knowledge else None))
        if knowledge is None:
            return replace(card, fix=fix)
        return replace(card, headline=knowledge.title, meaning=knowledge.meaning, solutions=knowledge.solutions,
                       fix=fix)


def open_source(settings: ExplainSettings) -> CardSource:
    """The cards `settings` point at: an index file when one is set, else the database.

    Raises:
        NoIndexError: the index file, or the SQLite database, does not exist.
        IndexFileError: the index file cannot be read, or fetched.
        DatabaseError: the database cannot be opened (when its stored index must be made again).
    """
    if settings.index:
        artifact = load_index_file(settings.index)
        return IndexFileCards(artifact, settings.base_url or artifact.base_url)
    return DatabaseCards(database_index(settings.db), settings.base_url, settings.knowledge_dir, settings.cases_dir)


def database_index(db: str) -> LookupIndex:
    """The stored lookup index of the database `db`; a SQLite file must exist (none is created here)."""
    if not is_url(db) and not Path(db).is_file():
        raise NoIndexError(f"no catalogue at {db}")
    return stored_index(db)


def load_index_file(where: str) -> Artifact:
    """The explain index at `where`: a file, a built site's folder, or an http(s) URL (fetched once).

    Raises:
        NoIndexError: there is no such file.
        IndexFileError: it cannot be read or fetched, or is not an explain index.
    """
    path = fetched(where) if where.startswith(("http://", "https://")) else Path(where).expanduser()
    if path.is_dir():
        path = path / EXPLAIN_PATH
    if not path.is_file():
        raise NoIndexError(f"no explain index at {path}")
    key = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:16]
    target = _cache() / f"v{FORMAT}-{key}.pickle"
    return stored_build(path, target, lambda: read_artifact(path))


def fetched(url: str) -> Path:
    """The index at `url`, downloaded into the cache folder the first time and read from there after.

    Raises:
        IndexFileError: the download failed, or the cache folder cannot keep it.
    """
    import urllib.request

    target = _cache() / f"{hashlib.sha256(url.encode()).hexdigest()[:16]}.json"
    if target.is_file():
        return target
    try:
        with urllib.request.urlopen(url, timeout=FETCH_TIMEOUT_S) as response:
            data = response.read()
    except OSError as error:  # URLError and timeouts too
        raise IndexFileError(url, f"cannot fetch it: {error}") from error
    try:
        with tempfile.NamedTemporaryFile(dir=target.parent, prefix=f".{target.name}-", delete=False) as file:
            file.write(data)
        os.replace(file.name, target)
    except OSError as error:
        raise IndexFileError(url, f"cannot keep it in {target.parent}: {error}") from error
    return target


def _cache() -> Path:
    folder = cache_folder(CACHE)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        pass  # nothing is kept then; stored_build copes
    return folder
