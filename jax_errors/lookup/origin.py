"""Whether a pasted message was raised where no Python `raise` of jax words it: inside XLA or jaxlib's C++, or by
the Python interpreter itself.

XLA's messages come with a status code (`INVALID_ARGUMENT: ...`, or `Invalid argument: ...` as
jaxlib printed it before 0.4), a runtime error class of jaxlib (`XlaRuntimeError`), or the words
of a C++ binding (`nanobind::...`, `std::bad_cast`). Lookup says so instead of offering a card
whose words merely resemble them; a status code in front of a message that a Python template of
today fits (XLA checked it before Python did) is stripped before templates are tried.

The interpreter's own messages (`No module named 'jax.experimental.export.shape_poly'`, `'>' not
supported between instances of 'int' and 'NoneType'`, `list index out of range`) come from an
import, an operator or a call in any code, the user's or jax's: no card stands for them, though a
raise of jax may word one alike (`No module named "cloudpickle"`). Only a template such a message
fits (whole, or by its first line) leads to a card; no merely alike wording does. A few raises of jax
word errors as Python does (`module 'jax' has no attribute ...`, of its lazy modules): their
templates fit, and their cards stand.
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
# CPython's wording of the errors its interpreter raises, each the whole first line of a message.
PYTHON_WORDS = re.compile("(?:" + "|".join((
    r"No module named '[^']+'(?:; '[^']+' is not a package)?",
    r"cannot import name '[^']+' from (?:partially initialized module )?'[^']+'(?: \(.*\))?",
    r"(?:module '[^']+'|type object '[^']+'|'[^']+' object) has no attribute '[^']+'",
    r"'[^']+' not supported between instances of '[^']+' and '[^']+'",
    r"unsupported operand type\(s\) for [^:]+: '[^']+' and '[^']+'",
    r"bad operand type for unary [^:]+: '[^']+'",
    r"(?:list|tuple|string|range object) index out of range",
    r"(?:list|tuple|string) indices must be integers(?: or slices)?, not \w+",
    r"'[^']+' object is not (?:subscriptable|callable|iterable|an iterator|reversible)",
    r"'[^']+' object does not support item (?:assignment|deletion)",
    r"'[^']+' object cannot be interpreted as an integer",
    r"unhashable type: '[^']+'",
    r"[\w.<>]+\(\) (?:takes (?:from \d+ to )?\d+ positional arguments? but \d+ (?:was|were) given"
    r"|got an unexpected keyword argument '[^']+'|got multiple values for argument '[^']+'"
    r"|missing \d+ required (?:positional|keyword-only) arguments?: .+)",
    r"name '[^']+' is not defined",
    r"(?:local variable '[^']+' referenced before assignment|cannot access local variable '[^']+'.*)",
    r"maximum recursion depth exceeded.*",
    r"(?:integer |float )?(?:division|modulo)(?: or modulo)? by zero",
    r"(?:too many values to unpack|not enough values to unpack) \(expected \d+(?:, got \d+)?\)",
)) + r")(?:\. Did you (?:mean: .+\?|forget to import '[^']+'\?.*))?")  # the hints Python 3.10 on adds
PYTHON_CLASSES = frozenset({
    "AttributeError", "ImportError", "IndexError", "ModuleNotFoundError", "NameError", "RecursionError", "TypeError",
    "UnboundLocalError", "ValueError", "ZeroDivisionError"})
NO_SITE = "raised inside XLA: no Python raise site"
NO_RAISE = "worded as the Python interpreter words its own errors: no raise of this catalogue words it"
NO_CARD = "no card matches this message"


def looks_raised_in_xla(query: Query) -> bool:
    """Whether the message bears XLA's or jaxlib's marks: a status code, a runtime error class, C++ words."""
    return (query.exc_class in RUNTIME_CLASSES or STATUS_PREFIX.match(query.message) is not None
            or CPP_WORDS.search(query.message) is not None)


def looks_raised_by_python(query: Query) -> bool:
    """Whether the message's first line is one the Python interpreter words (PYTHON_WORDS), raised as one of its own
    classes (or no class given)."""
    from jax_errors.lookup.index import first_line_of  # index reads this module

    return (query.exc_class is None or query.exc_class in PYTHON_CLASSES) and \
        PYTHON_WORDS.fullmatch(first_line_of(query.message)) is not None


def no_card_verdict(query: Query) -> str:
    """What lookup says of a message no card matches: where it was raised, when its words tell, else NO_CARD."""
    return NO_SITE if looks_raised_in_xla(query) else NO_RAISE if looks_raised_by_python(query) else NO_CARD


def without_status(message: str) -> str:
    """The message with one leading status code (`INVALID_ARGUMENT: `, `Invalid argument: `) taken off."""
    return STATUS_PREFIX.sub("", message, count=1)
