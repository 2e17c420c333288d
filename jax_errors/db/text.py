"""Text every database can hold: lone surrogates become U+FFFD, and NUL becomes U+2400 (␀).

A string literal in JAX's source may spell either (`"\\ud800"`, `"\\x00"`), and so may an exception's
message; UTF-8 has no lone surrogates, and PostgreSQL's text holds no NUL, though SQLite's does. So
that both back ends keep the same data, neither gets them. Standard library only: the reproduction
worker uses it.
"""

from __future__ import annotations

import re
from typing import Any

_SURROGATE = re.compile("[\ud800-\udfff]")


def storable(value: Any) -> Any:
    """`value` with every string in it (in lists and dicts too) made encodable as UTF-8."""
    if isinstance(value, str):
        if not value.isascii():
            value = _SURROGATE.sub("\ufffd", value)
        return value.replace("\x00", "\u2400") if "\x00" in value else value
    if isinstance(value, list):
        return [storable(item) for item in value]
    if isinstance(value, dict):
        return {key: storable(item) for key, item in value.items()}
    return value
