"""How an exception is written down: its class's dotted name and its message.

Standard library only: the reproduction worker and the pytest plugin use it where jax runs.
"""

from __future__ import annotations

from jax_errors.db.text import storable


def class_name(cls: type) -> str:
    """`ValueError` for builtins, else the dotted path (`jax.errors.ConcretizationTypeError`)."""
    if cls.__module__ == "builtins":
        return cls.__qualname__
    return f"{cls.__module__}.{cls.__qualname__}"


def message_of(error: BaseException) -> str:
    """`str(error)` as a database can hold it, or a stand-in when the exception cannot print itself."""
    try:
        return storable(str(error))
    except Exception:  # noqa: BLE001 - some __str__ methods fail on half-built objects
        return f"<unprintable {type(error).__name__}>"
