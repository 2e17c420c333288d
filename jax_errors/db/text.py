"""Text a database can hold: UTF-8 has no lone surrogates, so they become U+FFFD.

A string literal in JAX's source may spell one (`"\\ud800"`), and so may an exception's message;
SQLite and PostgreSQL both refuse to store it. Standard library only: the reproduction worker uses it.
"""

from __future__ import annotations

import re
from typing import Any

_SURROGATE = re.compile("[\ud800-\udfff]")


def storable(value: Any) -> Any:
    """`value` with every string in it (in lists and dicts too) made encodable as UTF-8."""
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value) if not value.isascii() else value
    if isinstance(value, list):
        return [storable(item) for item in value]
    if isinstance(value, dict):
        return {key: storable(item) for key, item in value.items()}
    return value
