"""`explain()`: the card(s) for an exception, a message, a pasted traceback or an error id.

Matching is lookup's own (`lookup.index.LookupIndex.lookup`, its scores and confidence bands). An
exception is read as `jax-errors lookup` reads `Type: message`, with the frames of its traceback
(those JAX's traceback filtering kept, or all of them when it kept them aside). The notes JAX adds
under a filtered traceback are no part of the message.

The cards' source is opened at the first call and kept for the process (one per settings).
"""

from __future__ import annotations

import os
import re
import sys
import traceback
from collections.abc import Mapping
from pathlib import Path
from types import TracebackType
from typing import Any

from jax_errors.exceptions import UnknownCardError
from jax_errors.explainer.cards import Explanation, card_url
from jax_errors.explainer.settings import ExplainSettings, read_settings
from jax_errors.explainer.source import CardSource, open_source
from jax_errors.lookup.index import Match, Query, parse_query

ERROR_ID = re.compile(r"[0-9a-f]{16}")
# What JAX adds under a traceback it filtered (jax._src.traceback_util), and the exception that
# carries the unfiltered one as the cause in its `remove_frames` mode.
JAX_FILTER_NOTE = "JAX has removed its internal frames"
UNFILTERED = "UnfilteredStackTrace"
JAX_PACKAGES = ("jax", "jaxlib")
# Frames read of a traceback: the innermost ones (a deep recursion would make a query too long).
MAX_FRAMES = 200

_sources: dict[ExplainSettings, CardSource] = {}


def explain(error: BaseException | str, *, limit: int = 3, settings: ExplainSettings | None = None,
            **where: Any) -> list[Explanation]:
    """The cards matching an exception, a message (`Type: message`, or a whole traceback) or an error id.

    Best first, as `jax-errors lookup` ranks them; none below its floor. An error id gives its card.

    Parameters:
        error: an exception, or its text, or a card's 16-hex-digit id.
        limit: at most this many cards.
        settings: where the cards come from (default: `settings.read_settings`, with `where`).
        where: `index`, `db`, `base_url`, `knowledge`, `cases`, as `settings.read_settings` takes them.
    Returns:
        Explanations with id, title, score, confidence, first solution, example fix and URL.
    Raises:
        NoIndexError: no index file or catalogue is where the settings say.
        IndexFileError: the index file cannot be read.
        SettingsFileError: the settings file is malformed.
        UnknownCardError: an error id that no card has.
        QueryTooLongError: the message is longer than lookup reads.
    """
    source = cards_source(settings or read_settings(**where))
    if isinstance(error, BaseException):
        return explanations(source, source.index.lookup(exception_query(error), limit=limit))
    text = error.strip()
    if ERROR_ID.fullmatch(text):
        return [by_id(source, text)]
    return explanations(source, source.index.lookup(parse_query(error), limit=limit))


def releases_say(error: BaseException | str, *, settings: ExplainSettings | None = None, **where: Any) -> str | None:
    """What the crawled releases say of the module or the name an error says is missing (`No module named ...`,
    `module ... has no attribute ...`): when it came, when it went (`lookup.names`). None where it says none, or
    they tell nothing. Takes what `explain` takes, and raises what it raises."""
    source = cards_source(settings or read_settings(**where))
    return source.index.name_said(exception_query(error) if isinstance(error, BaseException) else parse_query(error))


def cards_source(settings: ExplainSettings) -> CardSource:
    """The source `settings` point at, opened once per process (see `source.open_source` for its errors)."""
    source = _sources.get(settings)
    if source is None:
        source = _sources[settings] = open_source(settings)
    return source


def explanations(source: CardSource, matches: list[Match]) -> list[Explanation]:
    found = []
    for match in matches:
        card = source.card(match.entry.error_id)
        if card is not None:
            found.append(Explanation(card, match.score, match.confidence, card_url(card.error_id, source.base_url),
                                     match.how, match.worded_until))
    return found


def by_id(source: CardSource, error_id: str) -> Explanation:
    """The card of an error id, as a match of score 1.

    Raises:
        UnknownCardError: no card has this id.
    """
    entry = source.index.entry(error_id)
    if entry is not None and entry.wording_of:
        error_id = entry.card_id  # an earlier wording has no card of its own: the one it leads to
    card = source.card(error_id)
    if card is None:
        raise UnknownCardError(error_id)
    return Explanation(card, 1.0, "high", card_url(error_id, source.base_url))


def exception_query(error: BaseException) -> Query:
    """What lookup reads of an exception: `type(error).__name__: error`, and the jax frames of its traceback."""
    frames = "".join(f'  File "{frame.filename}", line {frame.lineno}, in {frame.name}\n'
                     for frame in traceback.extract_tb(_fullest_traceback(error))[-MAX_FRAMES:])
    return Query(str(error).strip(), type(error).__name__, parse_query(frames).jax_frames if frames else ())


def _fullest_traceback(error: BaseException) -> TracebackType | None:
    """The unfiltered traceback JAX keeps as the cause (`JAX_TRACEBACK_FILTERING=remove_frames`), else the error's."""
    cause = _unfiltered_cause(error)
    return cause.__traceback__ if cause is not None and cause.__traceback__ else error.__traceback__


def _unfiltered_cause(error: BaseException) -> BaseException | None:
    """The exception JAX chains as the cause to keep the unfiltered traceback, if this error has one."""
    cause = error.__cause__
    return cause if cause is not None and type(cause).__name__ == UNFILTERED and _from_jax(type(cause)) else None


def is_jax_exception(error: BaseException, *, modules: Mapping[str, Any] | None = None) -> bool:
    """Whether JAX raised `error`: its class is jax's or jaxlib's, a frame of its traceback is in their
    packages, or JAX filtered its traceback (the note it adds, or the unfiltered traceback it keeps as cause).
    """
    if _from_jax(type(error)):
        return True
    if any(JAX_FILTER_NOTE in str(note) for note in getattr(error, "__notes__", None) or ()):
        return True
    if _unfiltered_cause(error) is not None:
        return True
    folders = _package_folders(sys.modules if modules is None else modules)
    return bool(folders) and any(frame.filename.startswith(folders)
                                 for frame in traceback.extract_tb(error.__traceback__))


def _from_jax(cls: type) -> bool:
    return cls.__module__.partition(".")[0] in JAX_PACKAGES


def _package_folders(modules: Mapping[str, Any]) -> tuple[str, ...]:
    """The folders of the jax and jaxlib packages imported (none imported: jax raised nothing)."""
    folders = []
    for name in JAX_PACKAGES:
        file = getattr(modules.get(name), "__file__", None)
        if file:
            folders.append(str(Path(file).parent) + os.sep)
    return tuple(folders)
