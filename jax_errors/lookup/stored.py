"""A lookup index stored beside its SQLite database, so that `jax-errors lookup` does not rebuild it per call.

The index is pickled beside the database (`jax_errors.db.lookup` for `jax_errors.db`) with the
file's size and modification time (and its write-ahead log's) as they were when it was built. Any
write to the database changes them, and the next lookup builds the index again. A database given
by URL (PostgreSQL) is read every time; so is one whose folder cannot be written.

Only this package writes that file, and it is read back only as the database's companion.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from jax_errors.cache import keep
from jax_errors.db.location import is_url
from jax_errors.lookup.index import LookupIndex

# Bump when what is pickled changes shape, or how an index is derived (3: templates matching any text, lineage
# through renamed files; 4: the lead of each card, a class worded by its name; 5: snapshots in release order;
# 6: a `{name!r}` placeholder grouped as one in quotes, a removed lineage led on from its last wording, a wordless
# class led to the clause handling it, fewer common words in a small catalogue, the history line's links; 7: earlier
# wordings made by other modules, the class a maker or factory makes, functions moved alone; 8: one of several
# messages matched as one of them, its anchor words those every choice holds; 9: each choice one alternative of the
# regex, also where no placeholder is in it; 10: templates' first lines, by their own anchor words; 11: the line a
# wrapping class appends, left out of fuzzy keys and literal lengths; 12: a class's name read as a dotted name;
# 13: checks handed over to a twin, templates' first sentences; 14: the first lines of one of several messages;
# 15: checks re-classed at once; 16: the words each raise passes beyond its template, `Entry.said`; 17: cut keys, for
# messages cut short; 18: each entry's row pickled on its own; 19: a removed card's lineage end, `Entry.ends_as`;
# 20: `{type(x)}` reads a class as str() writes it; 21: the names modules removed, `Entry.attribute`; 22: the card of
# each, `LookupIndex.removed_names`; 23: the words raises add to a caught exception's message, `LookupIndex.wrappers`;
# 24: lineage finding one check's words, not only its letters, in another function's, `history._words_held`; 25: the
# checks callers called instead of passing words to a helper, `caller_forms.callee_raises`; 26: what the releases
# say of the modules and names some lacked, `LookupIndex.names`).
FORMAT = 26
STORED_SUFFIX = ".lookup"
T = TypeVar("T")


def stored_index(db: str) -> LookupIndex:
    """The lookup index of the database `db` (a SQLite path or a URL), stored for SQLite paths."""
    path = Path(db)
    if is_url(db) or not path.is_file():
        return _built(db)
    return stored_build(path, path.with_name(path.name + STORED_SUFFIX), lambda: _built(db))


def stored_build(source: Path, target: Path, build: Callable[[], T]) -> T:
    """What `build` makes of the file `source`, pickled at `target` and made again only when `source` changed.

    `target` holds the value with `source`'s stamp (`database_stamp`) as it was before the build; a
    value whose stamp differs, or that does not unpickle, is built again. A folder that cannot be
    written keeps nothing, and every call builds.
    """
    stamp = database_stamp(source)
    try:
        with target.open("rb") as file:
            saved_stamp, value = pickle.load(file)
        if saved_stamp == stamp:
            return value
    except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ValueError, TypeError):
        pass  # none yet, or from another version of this package: build it again
    value = build()
    if database_stamp(source) == stamp:  # nothing wrote meanwhile: what was read is what the stamp says
        keep(target, pickle.dumps((stamp, value), protocol=pickle.HIGHEST_PROTOCOL))
    return value


def database_stamp(path: Path) -> tuple:
    """What changes whenever the SQLite file, or its write-ahead log while it holds pages, is written.

    An empty log (a reader's connection makes one) holds nothing and is left out.
    """
    parts: list = [FORMAT]
    for file in (path, path.with_name(path.name + "-wal")):
        try:
            status = file.stat()
        except FileNotFoundError:
            continue
        if status.st_size or file == path:
            parts += [file.name, status.st_size, status.st_mtime_ns]
    return tuple(parts)


def _built(db: str) -> LookupIndex:
    from jax_errors.db.engine import open_database
    from jax_errors.lookup.build import open_index

    return open_index(open_database(db))
