"""Lookup cannot be stalled: crafted messages, built from every template's own words, each answer at once.

No timing is asserted. The regexes are checked to be linear by construction (every placeholder but
the last of an alternative is matched atomically), and the crafted messages are looked up: with the
backtracking regexes lookup used before, one of them alone ran for minutes (past this suite's
timeout), so the test stalls instead of passing if the construction regresses. `bench/bench.py
--only adversarial` reports the time of the worst one.
"""

from __future__ import annotations

import re

import pytest
from sqlalchemy.orm import Session

from jax_errors.lookup.adversarial import FAILING_TAIL, adversarial_messages
from jax_errors.lookup.build import index_from_session
from jax_errors.template import MAX_VARIANTS, Part, Template, folded, template_regex

_ATOMIC_PLACEHOLDER = re.compile(r"\(\?=\(\?P<s\d+>\.\*\?")


@pytest.fixture(scope="module")
def index(crawled_db):
    with Session(crawled_db) as session:
        return index_from_session(session)


def _alternatives(pattern: str) -> int:
    """How many group-free alternatives a template regex spells (its top-level `|`s, plus one)."""
    depth = alternatives = 0
    escaped = False
    for c in pattern:
        if escaped:
            escaped = False
        elif c == "\\":
            escaped = True
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "|" and depth == 1:
            alternatives += 1
    return alternatives + 1


def _quantified_groups(pattern: str) -> list[str]:
    """The bodies of the optional and repeated groups of a pattern (`(?:...)??`, `(?:...)*?`)."""
    bodies, opened, escaped = [], [], False
    for i, c in enumerate(pattern):
        if escaped:
            escaped = False
        elif c == "\\":
            escaped = True
        elif c == "(":
            opened.append(i)
        elif c == ")":
            start = opened.pop()
            if pattern[i + 1:i + 3] in ("??", "*?"):
                bodies.append(pattern[start:i])
    return bodies


def test_every_template_regex_is_linear_by_construction(index):
    """At most one backtracking placeholder per alternative, none in an optional or repeated group, and a
    bounded number of alternatives."""
    for entry in index.entries:
        pattern = entry.regex.pattern
        alternatives = _alternatives(pattern)
        assert alternatives <= MAX_VARIANTS, entry.error_id
        free = pattern.count(".*?") - len(_ATOMIC_PLACEHOLDER.findall(pattern))
        assert free <= alternatives, (entry.error_id, pattern)
        assert all(".*?" not in group for group in _quantified_groups(pattern)), entry.error_id


def test_crafted_messages_from_every_template_are_answered(index):
    """Each template's own words, repeated, then a tail no literal ends with: every one looked up."""
    looked_up = 0
    for entry in index.entries:
        for message in adversarial_messages(entry.template):
            index.lookup(message)
            looked_up += 1
            if entry.template.parts[-1].kind == "lit" and entry.template.parts[-1].text.strip():  # the tail spoils it
                assert entry.regex.fullmatch(folded(message)) is None, entry.error_id
    assert looked_up >= 2 * sum(1 for e in index.entries if e.literal_length)


def test_a_crafted_message_that_stalled_the_old_regex_is_answered():
    """The shape of the report (the out-of-bounds-read message of 0.10.2, its words repeated): before, minutes."""
    lit, expr = (lambda text: Part("lit", text)), (lambda text: Part("expr", text))
    template = Template((lit("Out of bounds read in "), expr("name"), lit(": index "), expr("i"), lit(" of "),
                         expr("size"), lit(" in dimension "), expr("d"), lit(" of "), expr("shape"), lit(".")))
    [repeated, _] = adversarial_messages(template, repetitions=40)
    assert template_regex(template).fullmatch(repeated.replace(FAILING_TAIL, "")) is not None
    assert template_regex(template).fullmatch(repeated) is None


@pytest.mark.parametrize("message, fits", [
    ("a x b y c", True), ("a b c", True), ("a x b y", False), ("a b b b c c", True), ("x a b c", False),
])
def test_committing_to_the_first_occurrence_keeps_every_match(message, fits):
    """Greedy wildcard matching: `a {p} b {q} c` fits exactly the messages the backtracking regex fit."""
    template = Template((Part("lit", "a "), Part("expr", "p"), Part("lit", " b "), Part("expr", "q"),
                         Part("lit", " c")))
    assert (template_regex(template).fullmatch(message) is not None) == fits


def _parts(*spec: str) -> Template:
    """A template from a compact spelling: `{x}` a placeholder, `[` `]` an optional run, `<` `>` a repeated one."""
    kinds = {"[": "opt_begin", "]": "opt_end", "<": "rep_begin", ">": "rep_end"}
    return Template(tuple(Part(kinds[s], "") if s in kinds else Part("expr", s[1:-1]) if s.startswith("{")
                          else Part("lit", s) for s in spec))


@pytest.mark.parametrize("template, message, fits", [
    # optional runs without a placeholder stay exact: they never let any text in
    (_parts("[", "pjit in_shardings", "]", "[", "pjit out_shardings", "]"), "pjit out_shardings", True),
    (_parts("[", "pjit in_shardings", "]", "[", "pjit out_shardings", "]"), "anything else", False),
    # optional runs with a placeholder are alternatives
    (_parts("bad axis", "[", " for ", "{name}", "]", "; see docs"), "bad axis for x; see docs", True),
    (_parts("bad axis", "[", " for ", "{name}", "]", "; see docs"), "bad axis; see docs", True),
    (_parts("bad axis", "[", " for ", "{name}", "]", "; see docs"), "bad axis of x; see docs", False),
    # a repeated run with a placeholder: none, one or many rounds
    (_parts("values:", "<", " ", "{v}", ",", ">", " end"), "values: end", True),
    (_parts("values:", "<", " ", "{v}", ",", ">", " end"), "values: 1, 2, 3, end", True),
    (_parts("values:", "<", " ", "{v}", ",", ">", " end"), "values: 1, 2, 3, stop", False),
])
def test_optional_and_repeated_runs_fit_what_the_template_can_say(template, message, fits):
    assert (template_regex(template).fullmatch(folded(message)) is not None) == fits
