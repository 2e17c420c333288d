"""Whether a pasted message was raised inside XLA or jaxlib's C++, where no Python `raise` of jax is.

Such messages come with a status code (`INVALID_ARGUMENT: ...`, or `Invalid argument: ...` as
jaxlib printed it before 0.4), a runtime error class of jaxlib (`XlaRuntimeError`), or the words
of a C++ binding (`nanobind::...`, `std::bad_cast`). Lookup says so instead of offering a card
whose words merely resemble them; a status code in front of a message that a Python template of
today fits (XLA checked it before Python did) is stripped before templates are tried.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from jax_errors.lookup.index import Query

# absl::StatusCode names, as XLA prints them now and (in words) as jaxlib printed them before 0.4.
_CODES = ("CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS",
          "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE",
          "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED")
STATUS_PREFIX = re.compile(
    "^(?:" + "|".join(_CODES) + "|" + "|".join(code.replace("_", " ").capitalize() for code in _CODES) + "): "
)
CPP_WORDS = re.compile(r"nanobind::|pybind11::|std::[a-z_]+|incompatible function arguments")
RUNTIME_CLASSES = frozenset({"XlaRuntimeError", "JaxRuntimeError"})
NO_SITE = "raised inside XLA: no Python raise site"
NO_CARD = "no card matches this message"


def looks_raised_in_xla(query: Query) -> bool:
    """Whether the message bears XLA's or jaxlib's marks: a status code, a runtime error class, C++ words."""
    return (query.exc_class in RUNTIME_CLASSES or STATUS_PREFIX.match(query.message) is not None
            or CPP_WORDS.search(query.message) is not None)


def without_status(message: str) -> str:
    """The message with one leading status code (`INVALID_ARGUMENT: `, `Invalid argument: `) taken off."""
    return STATUS_PREFIX.sub("", message, count=1)
