"""The words a raise passes beyond its template, read from its stored excerpt, and the site they pick
(`lookup.said`)."""

from types import SimpleNamespace

from jax_errors.lookup.index import Entry, LookupIndex, Query
from jax_errors.lookup.said import said_words, shown_words, worded_site
from jax_errors.template import Part, Template

SCAN = '''\
  if length is not None:
    try:
      length = int(length)
    except core.ConcretizationTypeError:
      msg = ('The `length` argument to `scan` expects a concrete `int` value.'
             ' For scan-like iteration with a dynamic length, use `while_loop`.')
      raise core.ConcretizationTypeError(length, msg) from None
'''
# A keyword argument's line reads like an assignment; another raise's words went to the same name before.
MODES = '''\
def quantize(x, mode):
  config = BlockScaleConfig(
      mode='mxfp4 blocks',
      scale=2)
  msg = "The first check of the mode failed."
  if x is None:
    raise ModeError(x, msg)
  msg: str = "The mode is not one this function supports."
  msg += " Use one of the listed modes."
  raise ModeError(x, msg)
'''
NO_WORDS = Template(())


def site(excerpt: str, lineno: int, end_lineno: int | None = None, start: int = 1) -> SimpleNamespace:
    return SimpleNamespace(excerpt=excerpt, lineno=lineno, end_lineno=end_lineno or lineno, excerpt_start=start)


def test_an_assignment_above_the_excerpt_s_top_counts_and_each_sentence_is_one_piece():
    """The function's `def` is above the excerpt, and no line of it leaves the function: the assignment is its own.
    A message quoting the first sentence alone (a jax before the second was added) holds that piece."""
    assert said_words(site(SCAN, 507, start=501), NO_WORDS) == (
        "The `length` argument to `scan` expects a concrete `int` value.",
        "For scan-like iteration with a dynamic length, use `while_loop`.")


def test_the_last_assignment_to_a_passed_name_counts_and_no_keyword_argument_does():
    assert said_words(site(MODES, 10), NO_WORDS) == (
        "The mode is not one this function supports.", "Use one of the listed modes.")
    assert said_words(site(MODES, 7), NO_WORDS) == ("The first check of the mode failed.",)


def test_only_text_the_raise_passes_counts():
    """Not the template's own text, a `.format` template's, a condition's, a one-word literal's."""
    raised = ('if to not in (None, "high bandwidth"): raise ValueError(f"{x} must be static, got {y}. " + ", " + '
              '"Try jit instead." + "{} for {}".format(a, "the dtype given") + getattr(x, "name"))\n')
    template = Template((Part("expr", "x"), Part("lit", " must be static, got "), Part("expr", "y")))
    assert said_words(site(raised, 1), template) == ("Try jit instead.", "the dtype given")


def test_a_statement_the_excerpt_cuts_or_that_does_not_parse_is_not_known():
    assert said_words(site('raise ValueError("The delete() method was called",\n', 1, end_lineno=2), NO_WORDS) is None
    assert said_words(site('raise ValueError("The delete() method was called" +)\n', 1), NO_WORDS) is None
    assert said_words(site('raise ValueError(f"passes {x}")\n', 1), NO_WORDS) == ()
    # A raise outside any function reads no assignment above it.
    assert said_words(site('msg = "Words of the module here"\nraise ValueError(msg)\n', 2), NO_WORDS) == ()


WORDS = Template((Part("lit", "Abstract tracer value: "), Part("expr", "context")))


def entry(error_id: str, said, *, until: str | None = None, path: str = "jax/_src/core.py") -> Entry:
    return Entry(error_id * 16, "ConcretizationTypeError", WORDS, path, int(error_id, 16), "jax-v0.0.2",
                 live_id=None if until else error_id * 16, until=until, said=said)


def test_the_site_holding_the_most_characters_of_its_words_heads_and_a_tie_goes_to_the_first():
    a = entry("1", ("The delete() method was called on",))
    b = entry("2", ("The devices() method was called on the tracer",))
    c = entry("3", ("The devices() method was called on the tracer",))
    d = entry("4", ("x y", "y z"))
    message = "Abstract tracer value: The  delete() method was called on x y z"
    assert worded_site([d, b, a], b, message) is a  # one piece of more characters than two of fewer
    assert worded_site([a, c, b], a, "Abstract tracer value: The devices() method was called on the tracer") is c
    assert shown_words(a, message) == "The delete() method was called on"


def test_a_message_holding_no_site_s_words_is_from_one_known_to_pass_none():
    """Not from one whose words are not known, and not instead of a head passing none itself."""
    worded, unknown, none = entry("1", ("The delete() method was called on",)), entry("2", None), entry("3", ())
    message = "Abstract tracer value: It arose in jnp.arange."
    assert worded_site([worded, unknown, none], worded, message) is none
    assert worded_site([unknown, worded, none], unknown, message) is None
    assert worded_site([worded, unknown], worded, message) is None


def test_a_live_result_is_headed_by_a_live_site_whatever_words_a_retired_one_passes():
    """The message holds only the retired site's words: of the live ones, the one passing words it lacks did not
    raise it, and the one passing none heads."""
    gone = entry("1", ("The delete() method was called on",), until="jax-v0.0.1", path="jax/interpreters/core.py")
    live, other = entry("5", ("The devices() method was called on",)), entry("9", ())
    for entries in ([gone, live, other], [live, other, gone]):
        [best] = LookupIndex(entries).lookup(Query("Abstract tracer value: The delete() method was called on x"))
        assert len(best.sites) == 3 and best.entry.error_id == "9" * 16
