"""Raises that add words to the message of an exception they caught, read from their stored excerpt
(`lookup.wrapped`)."""

import textwrap
from types import SimpleNamespace

from test_lookup_history import WRAPPER

from jax_errors.lookup.wrapped import caught_name, words_after_caught
from jax_errors.template import Part, Template

# `xla.py`'s raise of jax 0.1 (`test_lookup_history.WRAPPER`), as its stored excerpt holds it.
BUILD = textwrap.dedent(WRAPPER).lstrip("\n")
RAISE = BUILD.splitlines().index("        raise RuntimeError(msg)") + 1
HINT = "\nThis is a bug in JAX's shape-checking rules; please report it!\nhttps://github.com/google/jax/issues\n"
WRAPPED = Template((Part("opaque", "' '.join(map(str, e.args))"), Part("lit", HINT)))


def site(excerpt: str, lineno: int, guard_kind: str | None = "except", start: int = 1) -> SimpleNamespace:
    return SimpleNamespace(excerpt=excerpt, lineno=lineno, excerpt_start=start, guard_kind=guard_kind)


def test_the_words_a_raise_adds_after_a_caught_message_are_its_first_line_of_words():
    hint = "This is a bug in JAX's shape-checking rules; please report it!"
    assert caught_name(site(BUILD, RAISE)) == "e"
    assert words_after_caught(site(BUILD, RAISE), WRAPPED) == hint
    # The excerpt may start lines into the file.
    assert words_after_caught(site(BUILD, RAISE + 100, start=101), WRAPPED) == hint


def test_a_raise_not_opening_with_the_caught_message_adds_no_words_to_it():
    # Another name, the caught one's words after others', none after it, no words: none.
    assert words_after_caught(site(BUILD, RAISE), Template((Part("expr", "str(err)"), Part("lit", HINT)))) is None
    assert words_after_caught(site(BUILD, RAISE), Template((Part("lit", "Failed: "), Part("expr", "e")))) is None
    assert words_after_caught(site(BUILD, RAISE), Template((Part("expr", "e"),))) is None
    assert words_after_caught(site(BUILD, RAISE), Template((Part("expr", "e"), Part("lit", ": ")))) is None
    # A raise under an `if` of the clause, or in an `else`, stands in no clause of its own.
    assert words_after_caught(site(BUILD, RAISE, guard_kind="if"), WRAPPED) is None


def test_the_name_is_the_clause_s_own_and_none_when_the_excerpt_does_not_show_it():
    plain = BUILD.replace("except RuntimeError as e:", "except RuntimeError:")
    assert caught_name(site(plain, RAISE)) is None
    below = "".join(BUILD.splitlines(keepends=True)[4:])
    assert caught_name(site(below, RAISE, start=5)) is None  # the clause is above the excerpt
    assert caught_name(site(BUILD, RAISE + 10)) is None  # the line is not in it
