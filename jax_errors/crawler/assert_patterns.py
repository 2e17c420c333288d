"""The literal text a test's message pattern insists on: the runs any matching message contains."""

from __future__ import annotations

import re
from re import _constants as sre_constants  # type: ignore[attr-defined]
from re import _parser as sre_parser  # type: ignore[attr-defined]

from jax_errors.template import MARKERS, Template

MIN_RUN = 3  # shorter runs (", ", "of") say nothing about which message it is
# Stands for an interpolated value of the pattern: a private-use character no message holds.
HOLE = "\ue000"

_LITERAL = sre_constants.LITERAL
_SUBPATTERN = sre_constants.SUBPATTERN


def literal_runs(pattern: Template, kind: str) -> list[str]:
    """The runs of literal text, whitespace folded, that every message the pattern matches contains.

    Parameters:
        pattern: the pattern as mined (interpolated values are placeholders).
        kind: "regex" (a `re.search` pattern) or "literal" (a substring or the whole message).
    """
    text = "".join(p.text if p.kind == "lit" else HOLE for p in pattern.parts if p.kind not in MARKERS)
    if kind == "literal":
        runs = text.split(HOLE)
    else:
        runs = _regex_runs(text)
    folded = (" ".join(run.split()) for run in runs)
    return [run for run in folded if len(run.replace(" ", "")) >= MIN_RUN]


def _regex_runs(text: str) -> list[str]:
    try:
        parsed = sre_parser.parse(text.replace(HOLE, "(?:.*)"))
    except (re.error, OverflowError, RecursionError):
        # An f-string hole splitting a group in two: fall back to the text between metacharacters.
        return re.split(r"(?:\\.|[\^$.|?*+()\[\]{}]|" + HOLE + ")+", text)
    runs: list[str] = []
    current: list[str] = []
    _walk(parsed, runs, current)
    runs.append("".join(current))
    return runs


def _walk(parsed, runs: list[str], current: list[str]) -> None:
    for op, value in parsed:
        if op is _LITERAL:
            current.append(chr(value))
        elif op is _SUBPATTERN and value[-1] is not None:
            _walk(value[-1], runs, current)  # a plain group: its text is still contiguous
        else:
            # A class, a repeat, an alternative, an anchor: the run ends here.
            runs.append("".join(current))
            current.clear()
