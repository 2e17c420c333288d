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

NumPy's own messages are alike: a jax user meets `cannot reshape array of size 12 into shape (3,)` or
`too many indices for array` calling NumPy on a jax array, or in code of their own (#746, #2040). A
few raises of jax word NumPy's errors as NumPy does (`zero-size array to reduction operation ...`);
their templates fit.
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
# C++ words; and those of jaxlib's pytree (`PyTreeDef.flatten_up_to`: `Tuple arity mismatch: 1 != 2; tuple: ...`).
CPP_WORDS = re.compile(
    r"nanobind::|pybind11::|std::[a-z_]+|incompatible function arguments"
    r"|(?:Tuple|List|Named tuple|Custom type) arity mismatch: \d+ != \d+; (?:tuple|list|value): "
    r"|Dict key mismatch; expected keys: |(?:Custom node|Named tuple) type mismatch: expected type: "
    r"|Mismatch custom node data: ")
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
# NumPy's wording of the errors its C code raises (1.x and 2.x), each the whole first line of a message.
NUMPY_WORDS = re.compile("(?:" + "|".join((
    r"cannot reshape array of size \d+ into shape .+",
    r"too many indices for array(?:: array is \d+-dimensional, but \d+ were indexed)?",
    # jax 0.1.43 worded it so, and went on `and with the config option jax_numpy_rank_promotion=...`.
    r"operands could not be broadcast together with shapes (?:\([\d, ]*\) ?)+(?:and requested shape \([\d, ]*\))?",
    r"operands could not be broadcast together with remapped shapes \[original->remapped\]: .+",
    r"shape mismatch: .+ could not be broadcast .+",
    r"shape mismatch: objects cannot be broadcast to a single shape\..*",
    r"could not broadcast input array from shape \S+ into shape \S+",
    r"setting an array element with a sequence\.?(?: The requested array .+)?",
    r"index -?\d+ is out of bounds for axis \d+ with size \d+",
    r"only integer scalar arrays can be converted to a scalar index",
    r"only (?:length-1|size-1|0-dimensional) arrays can be converted to Python scalars",
    r"shapes \(.*\) and \(.*\) not aligned: \d+ \(dim \d+\) != \d+ \(dim \d+\)",
    r"\w+: Input operand \d+ has a mismatch in its core dimension \d+, with gufunc signature .+",
    r"all the input array dimensions except for the concatenation axis must match exactly, .+",
    r"all the input arrays must have same number of dimensions, .+",
    r"arrays used as indices must be of integer \(or boolean\) type",
    r"zero-size array to reduction operation \w+ which has no identity",
    r"data type (?:'[^']*' |\"[^\"]*\" )?not understood",  # `np.dtype` of what names none (#1363)
    r"Cannot interpret '.*' as a data type",  # `np.dtype` of what is no type (equinox#245)
)) + ")")
NUMPY_CLASSES = frozenset({"IndexError", "TypeError", "ValueError"})
NO_SITE = "raised inside XLA: no Python raise site"
NO_RAISE = "worded as the Python interpreter words its own errors: no raise of this catalogue words it"
NO_NUMPY_RAISE = "worded as NumPy words its own errors: no raise of this catalogue words it"
NO_CARD = "no card matches this message"


def looks_raised_in_xla(query: Query) -> bool:
    """Whether the message bears XLA's or jaxlib's marks: a status code, a runtime error class, C++ words."""
    return (query.exc_class in RUNTIME_CLASSES or STATUS_PREFIX.match(query.message) is not None
            or CPP_WORDS.search(query.message) is not None)


def looks_raised_by_python(query: Query) -> bool:
    """Whether the message's first line is one the Python interpreter words (PYTHON_WORDS), raised as one of its own
    classes (or no class given)."""
    return _worded_by(query, PYTHON_WORDS, PYTHON_CLASSES)


def looks_raised_by_numpy(query: Query) -> bool:
    """Whether the message's first line is one NumPy words (NUMPY_WORDS), raised as one of its classes (or no class
    given)."""
    return _worded_by(query, NUMPY_WORDS, NUMPY_CLASSES)


def looks_worded_elsewhere(query: Query) -> bool:
    """Whether the interpreter or NumPy words the message: only a template it fits, whole or by its first line, stands
    for it."""
    return looks_raised_by_python(query) or looks_raised_by_numpy(query)


def _worded_by(query: Query, words: re.Pattern[str], classes: frozenset[str]) -> bool:
    from jax_errors.lookup.index import first_line_of  # index reads this module

    return (query.exc_class is None or query.exc_class in classes) and \
        words.fullmatch(first_line_of(query.message)) is not None


def no_card_verdict(query: Query) -> str:
    """What lookup says of a message no card matches: where it was raised, when its words tell, else NO_CARD."""
    if looks_raised_in_xla(query):
        return NO_SITE
    return NO_RAISE if looks_raised_by_python(query) else NO_NUMPY_RAISE if looks_raised_by_numpy(query) else NO_CARD


def without_status(message: str) -> str:
    """The message with one leading status code (`INVALID_ARGUMENT: `, `Invalid argument: `) taken off."""
    return STATUS_PREFIX.sub("", message, count=1)
