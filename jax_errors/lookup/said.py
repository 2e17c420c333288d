"""The words a raise passes beyond its message's template: what tells apart sites that raise one message.

`raise ConcretizationTypeError(self, f"The delete() method was called on {self._error_repr()}.")`
passes a tracer and a context to a class that builds the message around them. Its template is the
class's (`... concrete value is expected: {tracer}\\n{context}...`), shared by every method of
`Tracer` that raises so, and lookup gives them one result (`LookupIndex.siblings`). The string
literals the raise passes (`The delete() method was called on`) are what a message of that site
holds and the others' do not: `worded_site` picks the site by them.

They are read from the site's stored source excerpt, so no snapshot is parsed again.
"""

from __future__ import annotations

import ast
import re
import textwrap
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from jax_errors.template import Template, folded

if TYPE_CHECKING:
    from jax_errors.db.models import RaiseSite
    from jax_errors.lookup.index import Entry

# A piece of fewer words (`'linear'`, `)` instead.`) tells no site from another: a mode's name, a key.
MIN_SAID_WORDS = 2
# The most lines an assignment of words to a name the raise passes is read over.
MAX_ASSIGNMENT_LINES = 8
# Each sentence counts alone: a message may hold one sentence of a literal that another jax went on after.
_SENTENCE_END = re.compile(r"(?<=[.!?]) ")
_WORD = re.compile(r"[^\W_]+")
_DEF = re.compile(r"\s*(?:async\s+)?def\s")
_ASSIGNMENT = re.compile(r"\s*(?P<name>[A-Za-z_]\w*)\s*(?::[^=]*)?\+?=[^=]")
_ASSIGNMENTS = (ast.Assign, ast.AugAssign, ast.AnnAssign)


@dataclass(frozen=True)
class RaiseRead:
    """A raise as its excerpt reads: the raised expression, and the values its function last assigned to the names
    it passes (the plain assignment, then each `+=` after it)."""

    raised: ast.expr
    assigned: Mapping[str, list[ast.expr]]


def read_raise(site: RaiseSite) -> RaiseRead | None:
    """The raise at `site`, read from its stored excerpt; None when the excerpt does not hold the whole statement,
    or it does not parse, or the statement re-raises."""
    lines = site.excerpt.splitlines()
    first, last = site.lineno - site.excerpt_start, (site.end_lineno or site.lineno) - site.excerpt_start
    statement = _parsed(lines[first:last + 1]) if 0 <= first <= last < len(lines) else None
    raised = next((node for node in ast.walk(statement) if isinstance(node, ast.Raise)), None) if statement else None
    if raised is None or raised.exc is None:
        return None
    passed = {node.id for node in ast.walk(raised.exc) if isinstance(node, ast.Name)}
    assigned: dict[str, list[ast.expr]] = {}
    for start in range(_enclosing_def(lines, first), first):
        if (found := _assignment(lines, start, first, passed)) is not None:
            name, value, adds = found
            assigned[name] = [*assigned.get(name, []), value] if adds else [value]
    return RaiseRead(raised.exc, assigned)


def said_words(site: RaiseSite, template: Template) -> tuple[str, ...] | None:
    """The words a raise passes that its template, the message as raised, does not hold.

    They are the string literals of the raised expression (of f-strings, their constant pieces) that reach
    the exception through calls, `+` and conditional expressions, not a `.format` or `%` template's own text;
    and those of the last assignment (then `+=`) in its function to a name it passes (`fname_context = f"The
    problem arose with the `{fname}` function. "` for `raise ConcretizationTypeError(arg, fname_context)`).
    Whitespace folded, cut into sentences, each of MIN_SAID_WORDS words or more, each once.

    Returns:
        The words, () when it passes none; None when the raise cannot be read (`read_raise`): whether it passes
        words is not known.
    """
    read = read_raise(site)
    if read is None:
        return None
    own = folded(template.text)
    said: dict[str, None] = {}
    for value in (read.raised, *(value for values in read.assigned.values() for value in values)):
        for literal in _passed_strings(value):
            for text in _SENTENCE_END.split(folded(literal)):
                if len(_WORD.findall(text)) >= MIN_SAID_WORDS and text not in own:
                    said[text] = None
    return tuple(said)


def _passed_strings(node: ast.expr) -> Iterator[str]:
    """The string literals an expression passes on as text: through calls' arguments, `+` and conditional
    expressions; not a `.format` or `%` template (its text is the template's), a condition or a subscript."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, ast.JoinedStr):
        for value in node.values:
            yield from _passed_strings(value)
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        yield from _passed_strings(node.left)
        yield from _passed_strings(node.right)
    elif isinstance(node, ast.IfExp):
        yield from _passed_strings(node.body)
        yield from _passed_strings(node.orelse)
    elif isinstance(node, ast.Call):
        for argument in (*node.args, *(keyword.value for keyword in node.keywords)):
            yield from _passed_strings(argument)


def _enclosing_def(lines: list[str], raised: int) -> int:
    """Where the lines of the function around `lines[raised]` begin: the line of its outermost `def` they hold (a
    nested function's outer one, whose names it reads); their first line when they hold none and reach no line
    outside a function; `raised` when they do, or when the raise stands outside any function."""
    start, indent = None, _indent(lines[raised])
    if indent == 0:
        return raised
    for number in range(raised - 1, -1, -1):
        line = lines[number]
        if not line.strip() or line.lstrip().startswith("#") or _indent(line) >= indent:
            continue
        indent = _indent(line)
        if _DEF.match(line):
            start = number
        elif line.lstrip().startswith("class ") or indent == 0:
            return raised if start is None else start
    return 0 if start is None else start


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _assignment(lines: list[str], start: int, end: int, names: set[str]) -> tuple[str, ast.expr, bool] | None:
    """The assignment statement starting at `lines[start]` (read over the fewest lines, before `end`, that parse) to
    one of `names`: the name, the value, and whether it adds to the name (`+=`); None for any other line."""
    found = _ASSIGNMENT.match(lines[start])
    if found is None or found["name"] not in names:
        return None
    for stop in range(start + 1, min(end, start + MAX_ASSIGNMENT_LINES) + 1):
        tree = _parsed(lines[start:stop])
        if tree is None:
            continue
        statement = tree.body[0] if len(tree.body) == 1 else None
        if not isinstance(statement, _ASSIGNMENTS) or statement.value is None:
            return None
        targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
        if [target.id for target in targets if isinstance(target, ast.Name)] != [found["name"]]:
            return None
        return found["name"], statement.value, isinstance(statement, ast.AugAssign)
    return None


def _parsed(lines: list[str]) -> ast.Module | None:
    try:
        return ast.parse(textwrap.dedent("\n".join(lines)))
    except (SyntaxError, ValueError):
        return None


def worded_site(sites: Sequence[Entry], head: Entry, message: str) -> Entry | None:
    """Of the sites raising one message, headed by `head`, the one that raised it by the words each passes.

    Returns:
        The site whose own words (`Entry.said`) the message holds the most characters of, the first of a tie.
        When it holds none of any site's while `head` passes some, the first site known to pass none: one whose
        words a message lacks did not make it (`Tracer.delete` passes its own, `concrete_or_error` its caller's).
        None when neither picks a site.
    """
    text = folded(message)
    best, most = None, 0
    for site in sites:
        held = sum(len(words) for words in held_words(site, text))
        if held > most:
            best, most = site, held
    if best is None and head.said:
        best = next((site for site in sites if site.said == ()), None)
    return best


def held_words(site: Entry, text: str) -> list[str]:
    """The site's own words (`Entry.said`) that `text`, a folded message, holds."""
    return [words for words in site.said or () if words in text]


def shown_words(site: Entry, message: str) -> str | None:
    """The longest of the site's own words the message holds, as lookup shows it beside the site; None without."""
    return max(held_words(site, folded(message)), key=len, default=None)
