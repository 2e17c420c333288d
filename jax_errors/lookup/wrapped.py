"""Raises that add words to the message of an exception they caught.

jax 0.1 and 0.2 built XLA computations op by op, and `primitive_computation` caught the builder's
`RuntimeError` to raise it again with a hint after its words::

    except RuntimeError as e:
      msg = (" ".join(map(str, e.args)) + "\\n"
             "This is a bug in JAX's shape-checking rules; please report it!\\n" ...)
      raise RuntimeError(msg)

Its template opens with a placeholder reading the caught exception and goes on with the hint. A
message it made is another raise's message with the hint after it (#2826: `Gather op has 3 elements
in start_index_map ... These two numbers must be equal.` and the hint). Once the wrapping raise is
gone from jax, with no raise succeeding it, the message it held is what the same mistake raises
today: jax checks gathers in Python now. Lookup leads such a message to the card of the message it
held (`LookupIndex._held`).

The crawler reads the clause (`raise_sites`) but keeps only the classes it handles, as the raise's guard;
so the name it binds is read here from the site's stored excerpt, and no snapshot is parsed again. A raise
whose nearest less indented line above is not the clause (one under a `for` in the clause) is not read:
lookup then only misses the held card of its messages.
"""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING

from jax_errors.template import Template, folded, spells_words

if TYPE_CHECKING:
    from jax_errors.db.models import RaiseSite

_EXCEPT_AS = re.compile(r"except\b.*\bas\s+(?P<name>[A-Za-z_]\w*)\s*:")
_PLACEHOLDERS = ("expr", "opaque")


def words_after_caught(site: RaiseSite, template: Template) -> str | None:
    """Of a raise standing in an `except ... as NAME:` clause whose message opens with a placeholder reading NAME, then
    literal text: the first line of words of that text, folded (what its messages hold right after the caught
    exception's, even one pasted without its later lines). None for any other raise, one adding no words (`: `), and
    when the excerpt does not show the clause."""
    parts = template.parts
    if site.guard_kind != "except" or len(parts) < 2 or parts[0].kind not in _PLACEHOLDERS or parts[1].kind != "lit":
        return None
    words = next((folded(line) for line in parts[1].text.splitlines() if spells_words(line)), None)
    name = caught_name(site)
    if words is None or name is None:
        return None
    try:
        placeholder = ast.parse(parts[0].text, mode="eval")
    except SyntaxError:
        return None
    return words if any(isinstance(node, ast.Name) and node.id == name for node in ast.walk(placeholder)) else None


def caught_name(site: RaiseSite) -> str | None:
    """The name the `except` clause a raise stands in binds (`except RuntimeError as e:` binds `e`), read from the
    site's excerpt: the nearest line above the raise that is less indented than it, if that line is such a clause;
    None when it is another line, or the excerpt starts below it."""
    lines = site.excerpt.splitlines()
    at = site.lineno - site.excerpt_start
    if not 0 <= at < len(lines):
        return None
    indent = _indent(lines[at])
    for line in reversed(lines[:at]):
        stripped = line.strip()
        if stripped and not stripped.startswith("#") and _indent(line) < indent:
            found = _EXCEPT_AS.match(stripped)
            return found["name"] if found else None
    return None


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())
