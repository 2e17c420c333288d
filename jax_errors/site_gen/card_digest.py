"""A digest of what a card is made of: what tells a build whether the card changed since the last one.

A card's page and record are made from its fields alone (and the generator's code, which
`output.generator_fingerprint` hashes): equal fields make equal files. So the fields are hashed, not
the record made from them, which is a dozen times faster: the record derives the trigger sentence, the
callers and the title from the fields, and it is only needed for the cards that did change.

Fields only: values a card computes and keeps (`functools.cached_property`) are left out, so the
digest is the same whether or not the card was rendered before. Of a row read from the database,
its keys are left out too: a raise site stored again, for a file that changed elsewhere, reads the same.
A curated file counts by its name, which is all a page shows of it: two checkouts hash alike.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable
from operator import attrgetter
from pathlib import PurePath
from typing import Any

import orjson
from sqlalchemy import inspect

from jax_errors.db.models import Base
from jax_errors.site_gen.catalogue import Card

_OPTIONS = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATACLASS
# What reads the fields (or columns) of each type met, by type; None for a type that has none.
_FIELDS: dict[type, Callable[[Any], tuple] | None] = {}


def card_digest(card: Card) -> str:
    """A hex digest of `card`'s fields, nested values included."""
    return hashlib.sha256(orjson.dumps(card, default=_plain, option=_OPTIONS)).hexdigest()


def _plain(value: Any) -> Any:
    """What orjson cannot write by itself, as what it can: a value's type name and its fields, in order."""
    kind = type(value)
    fields = _FIELDS[kind] if kind in _FIELDS else _fields_of(kind)
    if fields is not None:
        return (kind.__qualname__, fields(value))
    if isinstance(value, tuple):  # a named tuple
        return list(value)
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=repr)
    if isinstance(value, PurePath):  # a curated file's: pages name it, never where the checkout stands
        return value.name
    raise TypeError(f"a card holds a {kind.__qualname__}, which card_digest cannot hash")


def _fields_of(kind: type) -> Callable[[Any], tuple] | None:
    if dataclasses.is_dataclass(kind):
        names = tuple(f.name for f in dataclasses.fields(kind))
    elif issubclass(kind, Base):  # a row read from the database: what it says, not where it is stored (its keys)
        names = tuple(attribute.key for attribute in inspect(kind).column_attrs
                      if not any(column.primary_key or column.foreign_keys for column in attribute.columns))
    else:
        _FIELDS[kind] = None
        return None
    read = attrgetter(*names) if len(names) > 1 else (lambda value: tuple(getattr(value, name) for name in names))
    _FIELDS[kind] = read
    return read
