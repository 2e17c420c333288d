"""`install()`: a `sys.excepthook` that prints, under a JAX traceback, the card that explains it.

The traceback is printed first, by the hook that was there before, exactly as without jax-errors.
Under it comes one short block (`block.text_block`), only for an exception JAX raised
(`api.is_jax_exception`) whose best card lookup scores medium or high; and, above it, for an
`ImportError` or `AttributeError` saying a module or name of jax is missing, a line of what the
crawled releases say of it (`releases_for_traceback`). Anything else, and any failure of jax-errors
itself, prints nothing more. Installing imports nothing and reads nothing:
the settings are read and the index loaded at the first exception.
"""

from __future__ import annotations

import sys
from types import TracebackType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jax_errors.explainer.cards import Explanation

# Where the hooks read cards from: what `install()` was given; the rest from the environment and settings file.
_where: dict[str, Any] = {}
# Settings whose source failed to open: a broken or missing index is tried once per process, not per exception.
_unavailable: set = set()
_previous_hook = None


def install(*, index: str | None = None, db: str | None = None, base_url: str | None = None,
            knowledge: str | None = None, cases: str | None = None) -> None:
    """Show the card under every JAX traceback: in this interpreter, and in IPython or Jupyter when running there.

    Parameters:
        index, db, base_url, knowledge, cases: as `settings.read_settings` takes them; by default
            the environment and the settings file say (README, "Use it where the error happens").
    """
    global _previous_hook
    given = {"index": index, "db": db, "base_url": base_url, "knowledge": knowledge, "cases": cases}
    _where.clear()
    _where.update({key: value for key, value in given.items() if value})
    _unavailable.clear()
    if sys.excepthook is not excepthook:
        _previous_hook, sys.excepthook = sys.excepthook, excepthook
    shell = _ipython_shell()
    if shell is not None:
        from jax_errors.explainer.ipython import load_ipython_extension

        load_ipython_extension(shell)


def uninstall() -> None:
    """Put back the `sys.excepthook` that `install()` replaced, and leave IPython's display as it was."""
    global _previous_hook
    if sys.excepthook is excepthook:
        sys.excepthook, _previous_hook = _previous_hook or sys.__excepthook__, None
    shell = _ipython_shell()
    if shell is not None:
        from jax_errors.explainer.ipython import unload_ipython_extension

        unload_ipython_extension(shell)


def excepthook(kind: type[BaseException], error: BaseException, tb: TracebackType | None) -> None:
    """The traceback as the previous hook prints it, then what the releases say of a missing module or name and the
    card's block, when there are such to show."""
    (_previous_hook or sys.__excepthook__)(kind, error, tb)
    said, found = releases_for_traceback(error), card_for_traceback(error)
    try:
        from jax_errors.explainer.block import releases_text, text_block

        shown = ([releases_text(said)] if said else []) + ([text_block(found)] if found is not None else [])
        if shown:
            print("\n".join(shown), file=sys.stderr)
    except Exception:  # the traceback is out: jax-errors adds nothing rather than fail
        pass


def card_for_traceback(error: BaseException) -> Explanation | None:
    """The card to show under this exception's traceback, or None: never raises.

    None for an exception JAX did not raise, a best match of low confidence, no match, and any
    failure of jax-errors (no index, a broken one, a bug): the traceback stays the whole story.
    """
    try:
        from jax_errors.explainer.api import explain, is_jax_exception
        from jax_errors.lookup.index import REMOVED_NAME

        if not isinstance(error, Exception) or not is_jax_exception(error):
            return None
        settings = _opened_settings()
        if settings is None:
            return None
        found = explain(error, limit=2, settings=settings)
        # Of a name a module removed, what the module said of it tells what to do, where the card of `module 'jax'
        # has no attribute 'tree_map'` (first) does not: its card comes second (`LookupIndex._removed_name`).
        best = next((f for f in found if f.how == REMOVED_NAME), found[0] if found else None)
        return best if best is not None and best.confident else None
    except Exception:
        return None


def releases_for_traceback(error: BaseException) -> str | None:
    """What the crawled releases say of the jax module or name an `ImportError` or `AttributeError` says is missing
    (`api.releases_say`: `jax.experimental.maps was a module ... up to jax-v0.4.30 ...`), or None: never raises.

    The interpreter raises most of these itself, in the user's own import (`from jax.experimental import maps`):
    no frame of jax need be in the traceback, only jax's name in the message."""
    try:
        from jax_errors.explainer.api import releases_say
        from jax_errors.lookup.names import missing

        if not isinstance(error, (ImportError, AttributeError)):
            return None
        dotted = missing(str(error).strip().partition("\n")[0])
        if dotted is None or dotted.partition(".")[0] != "jax":
            return None
        settings = _opened_settings()
        return None if settings is None else releases_say(error, settings=settings)
    except Exception:
        return None


def _opened_settings():
    """The settings the hooks read cards from, once their source opened; None where it does not (tried once)."""
    from jax_errors.explainer.api import cards_source
    from jax_errors.explainer.settings import read_settings

    settings = read_settings(**_where)
    if settings in _unavailable:
        return None
    try:
        cards_source(settings)
    except Exception:
        _unavailable.add(settings)
        return None
    return settings


def _ipython_shell():
    """The running IPython shell, if this is one (IPython is never imported here)."""
    ipython = sys.modules.get("IPython")
    get = getattr(ipython, "get_ipython", None)
    try:
        return get() if get else None
    except Exception:
        return None
