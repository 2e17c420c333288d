import ast

import pytest

from jax_errors.crawler.template_builder import build_template
from jax_errors.template import Template, template_regex


def template(source: str) -> Template:
    return build_template(ast.parse(source, mode="eval").body)


@pytest.mark.parametrize(("source", "text", "forms"), [
    ('"plain message"', "plain message", {"literal"}),
    ('("implicit " "concatenation")', "implicit concatenation", {"literal"}),
    ('f"got {x.shape} and {y!r:>10}"', "got {x.shape} and {y!r:>10}", {"fstring"}),
    ('f"{axis_name=} missing"', "axis_name={axis_name!r} missing", {"fstring"}),
    ('"a %s b %d %%" % (x, y)', "a {x} b {y} %", {"percent"}),
    ('"%(name)s is bad" % {"name": n}', "{n} is bad", {"percent"}),
    ('"one %r" % x', "one {x}", {"percent"}),
    ('"shape {} vs {name} and {0.dtype}".format(a.shape, name=b)', "shape {a.shape} vs {b} and {a.shape.dtype}", {"format"}),
    ('"x " + str(y) + " z"', "x {str(y)} z", {"concat", "literal", "value"}),
    ('"values: " + ", ".join(names)', "values: {', '.join(names)}", {"concat", "literal", "value"}),
    ('textwrap.dedent("""  indented  """)', "  indented  ", {"literal"}),
])
def test_every_template_form(source, text, forms):
    result = template(source)
    assert result.text == text
    assert result.forms == forms
    assert result.complete


@pytest.mark.parametrize("source", ["msg", "_make_message(x)", "e"])
def test_unknown_messages_are_opaque(source):
    result = template(source)
    assert not result.complete
    assert [p.kind for p in result.parts] == ["opaque"]


def test_seed_template_and_skeleton():
    result = template(
        "('all_gather_reduced only accepts inputs that are'\n"
        "                     f' varying. Got {x_aval.str_short(True)}')"
    )
    assert result.text == "all_gather_reduced only accepts inputs that are varying. Got {x_aval.str_short(True)}"
    assert result.skeleton == "all_gather_reduced only accepts inputs that are varying. Got {}"


def test_round_trips_through_json():
    result = template('f"a {b} c"')
    assert Template.from_json(result.to_json()).text == result.text


def test_regex_matches_real_messages_and_folds_whitespace():
    regex = template_regex(template('f"Incompatible shapes for broadcasting: {shapes}\\n  see docs"'))
    assert regex.fullmatch("Incompatible shapes for broadcasting: [(3,), (4,)]\n see   docs")
    assert not regex.fullmatch("Compatible shapes: [(3,)]")


def test_regex_escapes_literal_metacharacters():
    regex = template_regex(template('"got <class \'int\'> (x+y)*"'))
    assert regex.fullmatch("got <class 'int'> (x+y)*")
    assert not regex.fullmatch("got <class 'int'> xx+yy")


def test_punctuation_between_values_is_no_words():
    from jax_errors.template import Part, Template

    compared = Template((Part("expr", "out_tree"), Part("lit", "\n!=\n"), Part("expr", "out_tree_")))
    assert not compared.has_words and compared.title == "" and compared.complete
    assert Template((Part("lit", "got "), Part("expr", "x"))).has_words


def _optional_runs(count: int) -> Template:
    """What an `if`/`elif` chain assigning the message builds: each branch's words an optional run."""
    from jax_errors.template import Part

    parts = []
    for i in range(count):
        parts += [Part("opt_begin", ""), Part("lit", f"Variable number {i} is "), Part("expr", "v"),
                  Part("opt_end", "")]
    return Template(tuple(parts))


def test_a_template_whose_regex_accepts_any_text_is_known_and_proves_nothing_in_lookup():
    from jax_errors.lookup.index import Entry, LookupIndex
    from jax_errors.template import MAX_VARIANTS, Part, accepts_any_text

    runs = MAX_VARIANTS.bit_length() - 1  # the runs whose presence the regex still spells out
    assert not accepts_any_text(_optional_runs(runs)) and accepts_any_text(_optional_runs(runs + 1))
    assert template_regex(_optional_runs(runs + 1)).fullmatch("anything at all")  # so its literal text proves nothing
    assert not template_regex(_optional_runs(runs)).fullmatch("anything at all")
    assert accepts_any_text(Template((Part("expr", "msg"),)))
    assert not accepts_any_text(template('f"got {x} " + ("and more" if y else "")'))
    chain = Entry("c" * 16, "TypeError", _optional_runs(runs + 1), "jax/core.py", 1, "jax-v0.2.20")
    assert chain.literal_length == 0
    index = LookupIndex([chain, Entry("d" * 16, "TypeError", _optional_runs(runs), "jax/core.py", 9, "jax-v0.2.20")])
    assert index.lookup("TypeError: '>' not supported between instances of 'int' and 'NoneType'") == []
    [found] = index.lookup("TypeError: Variable number 2 is x")
    assert found.entry.error_id == "d" * 16


def test_one_of_several_messages_is_titled_by_the_leading_words_they_share():
    """`prefix_errors`' makers word four messages, all `pytree structure error: different ...`; none holds in every
    message, so the title is what they share."""
    one_of = template('("pytree structure error: different types at " + p) if a else '
                      '(f"pytree structure error: different lengths of {t} at {p}" if b else "other words")')
    assert "alternatives" in one_of.forms and one_of.title == ""  # "other words" shares no leading word
    two = template('("pytree structure error: different types at " + p) if a else '
                   'f"pytree structure error: different lengths of {t} at {p}"')
    assert two.title == "pytree structure error: different …"
    assert [t.title for t in two.split_alternatives()] == ["pytree structure error: different types at …",
                                                          "pytree structure error: different lengths of … at …"]
    three = template('("pytree structure error: different types at " + p) if a else '
                     '(f"pytree structure error: different lengths of {t}" if b else "pytree structure error: other")')
    assert len(three.split_alternatives()) == 3 and three.title == "pytree structure error: …"
    assert template('f"got {x}"').split_alternatives() == []


def test_optional_parts_that_may_stand_together_are_not_one_of_several_messages():
    """`if a: msg += "first problem. "`, then `if b: msg += "second problem."`: both may show, so neither is one
    of two messages; nor are two conditional pieces added together."""
    from jax_errors.template import literal, optional

    added = optional(literal("first problem in the shapes. ")) + optional(literal("second problem in the shapes."))
    assert added.split_alternatives() == [] and added.title == ""
    joined = template('("first problem in the shapes. " if a else "") + ("second problem in the shapes." if b else "")')
    assert joined.split_alternatives() == []
    assert template('"the shapes differ" if a else "the dtypes differ"').title == ""  # one shared word says nothing


def test_one_of_several_messages_matches_one_of_them_not_several_or_none():
    """`a if x else b` shows `a` or `b`: its regex takes each alone, not both together, not nothing; its anchor
    words are those both hold (the first word of each too: nothing comes before them). A further alternative of
    no text (`... else ""`) admits nothing as well, and leaves no word required."""
    from jax_errors.template import required_words

    one_of = template('f"the shapes {a} differ" if x else (f"the dtypes {b} differ" if y else "the ranks differ")')
    regex = template_regex(one_of)
    for message in ("the shapes (3,) differ", "the dtypes f32 differ", "the ranks differ"):
        assert regex.fullmatch(message)
    assert not regex.fullmatch("the ranks differ the ranks differ")
    assert not template_regex(template('"the shapes differ" if x else "the dtypes differ"')).fullmatch(
        "the shapes differ the dtypes differ")
    assert not regex.fullmatch("")
    assert required_words(one_of) == {"the", "differ"}

    framed = template('"bad input: " + ("the shapes differ" if x else "the dtypes differ") + "; fix it"')
    assert template_regex(framed).fullmatch("bad input: the dtypes differ; fix it")
    assert not template_regex(framed).fullmatch("bad input: ; fix it")
    assert required_words(framed) == {"bad", "input:", "the", "fix", "it"}  # `differ;` glues a choice to `;`

    or_none = template('"bad input" + (": the shapes differ" if x else "" if y else ": the dtypes differ")')
    assert or_none.split_alternatives() == []
    assert template_regex(or_none).fullmatch("bad input")
    assert template_regex(or_none).fullmatch("bad input: the dtypes differ")
    assert not template_regex(or_none).fullmatch("bad input: the shapes differ: the dtypes differ")
    assert required_words(or_none) == {"bad"}


def test_optional_parts_that_may_stand_together_match_together():
    """Two `if`s each adding a sentence: the message holds either, both or neither."""
    from jax_errors.template import literal, optional, required_words

    added = literal("bad input. ") + optional(literal("first problem. ")) + optional(literal("second problem."))
    regex = template_regex(added)
    for message in ("bad input.", "bad input. first problem.", "bad input. second problem.",
                    "bad input. first problem. second problem."):
        assert regex.fullmatch(message)
    assert required_words(added) == {"bad", "input."}


def test_a_choice_between_two_placeholders_is_matched_whichever_is_made():
    """Between two placeholders a stretch is matched at its first occurrence; a choice there must not commit to its
    first alternative that fits (`must be a positive int` read as the longer choice, then nothing left for `int`)."""
    choice = template('f"{name} " + ("must be a positive int" if c else "must be") + f" {kind} int"')
    assert template_regex(choice).fullmatch("n must be a positive int")  # the short choice, `kind` "a positive"
    assert template_regex(choice).fullmatch("n must be a positive int really int")
    or_none = template('f"{v}" + ("aa" if c else ("cc cc cc " if d else "")) + f" {w} aa cc bb "')
    assert template_regex(or_none).fullmatch("aa cc bb")  # no choice made, `v` and `w` empty


def test_a_templates_first_line_is_its_parts_up_to_the_first_line_break_every_message_holds():
    """What a user has of a long message may be its first line: the template's first line matches it alone."""
    from jax_errors.template import first_line

    leak = template('f"Encountered an unexpected tracer of type {t}.\\nJAX transformations require ... {detail}"')
    head = first_line(leak)
    assert head.text == "Encountered an unexpected tracer of type {t}."
    assert template_regex(head).fullmatch("Encountered an unexpected tracer of type float32[].")
    assert not template_regex(leak).fullmatch("Encountered an unexpected tracer of type float32[].")

    assert first_line(template('f"shapes {a} and {b} differ"')) is None  # one line: no first line of more
    assert first_line(template('"\\nAs of JAX 0.4.0, JAX only supports TPU VMs.\\nSee the docs."')).text == (
        "As of JAX 0.4.0, JAX only supports TPU VMs.")  # a leading line break starts no line
    assert first_line(template('f"shapes {a} and {b} differ\\n"')) is None  # a final line break starts no line
    # A line break in an optional part is not in every message: the first line runs on past it.
    sometimes = template('"bad carry" + (":\\nthe shapes differ" if x else "") + f" in {name}\\nfix it"')
    assert first_line(sometimes).parts == sometimes.parts[:-1]
    assert template_regex(first_line(sometimes)).fullmatch("bad carry in scan")
    # One of several messages: the first lines of its choices, one of them; a choice of one line stands whole.
    from jax_errors.template import alternatives

    makers = alternatives([template('f"pytree structure error: different types at key path\\n    {path}"'),
                           template('f"pytree structure error: different lengths of {kind} at key path\\n  {path}"'),
                           template('f"pytree structure error: no path {path}"')])
    heads = first_line(makers)
    assert [t.text for t in heads.split_alternatives()] == [
        "pytree structure error: different types at key path",
        "pytree structure error: different lengths of {kind} at key path", "pytree structure error: no path {path}"]
    assert template_regex(heads).fullmatch("pytree structure error: different lengths of tuple at key path")
    assert first_line(alternatives([template('"one line"'), template('"another line"')])) is None


def test_a_templates_first_sentence_is_its_parts_up_to_the_first_sentence_end_every_message_holds():
    """A message may be quoted up to a sentence's end (#40907 quotes `For primitive ... for shape bool[]` of a
    message that goes on `. This error occurs at source: ...`): the template's first sentence matches it alone,
    with its full stop or without."""
    from jax_errors.template import first_sentence

    mesh = template('f"For primitive {p}, context mesh {m} should match the aval mesh {a} for shape {s}. '
                    'This error occurs at source: {src}"')
    head = first_sentence(mesh)
    assert head.skeleton == "For primitive {}, context mesh {} should match the aval mesh {} for shape {}."
    quoted = "For primitive add, context mesh M('a': 2,\n  ...) should match the aval mesh N for shape bool[]"
    assert template_regex(head).fullmatch(quoted) and template_regex(head).fullmatch(quoted + ".")
    assert not template_regex(mesh).fullmatch(quoted)
    words = first_sentence(template('"No GPU found. Falling back to CPU, as asked."'))
    assert template_regex(words).fullmatch("No GPU found.") and not template_regex(words).fullmatch(
        "No GPU found. Falling back")

    assert first_sentence(template('f"shapes {a} and {b} differ. "')) is None  # the last sentence: no more follow
    assert first_sentence(template('"Use arrays (e.g. np.ones) here. Lists fail."')).skeleton == (
        "Use arrays (e.g. np.ones) here.")  # `e.g.` ends no sentence
    # Nor do `vs.`, `etc.`, `E.g.` or an ellipsis; and a sentence has words before its end.
    assert first_sentence(template('f"Operands must match init_values: {a} vs. {b}. Fix the tree."')).skeleton == (
        "Operands must match init_values: {} vs. {}.")
    assert first_sentence(template('f"spec contains ... which is bad. E.g. this, etc. goes. Fix it."')).skeleton == (
        "spec contains ... which is bad.")
    assert first_sentence(template('f"{x}. More text here. And more."')).skeleton == "{}. More text here."
    # A sentence's end in an optional part is not in every message: the first sentence runs on past it.
    sometimes = template('"bad carry" + (". The shapes differ" if x else "") + f" in {name}. Fix it."')
    assert first_sentence(sometimes).skeleton == "bad carry. The shapes differ in {}."


def test_a_class_s_name_in_a_message_reads_only_a_dotted_name():
    """`Tracer.__getattr__` raises `{self.__class__.__name__} has no attribute {name}`: the class's name is one word,
    so Python's own `'str' object has no attribute 'obj'` is no message of it. A function's name may be anything
    (jax names wrapped functions `jit(f)`), and so may a value beside a class's name."""
    getattr_words = build_template(ast.parse(
        'f"{self.__class__.__name__} has no attribute {name}"', mode="eval").body)
    regex = template_regex(getattr_words)
    assert regex.fullmatch("DynamicJaxprTracer has no attribute sharding")
    assert regex.fullmatch("jax._src.core.Foo.<locals>.Bar has no attribute x")
    assert not regex.fullmatch("'str' object has no attribute 'obj'")
    of_type = template_regex(build_template(ast.parse('f"got {type(x).__name__} for {y}"', mode="eval").body))
    assert of_type.fullmatch("got ArrayImpl for (3,)") and not of_type.fullmatch("got <class 'int'> for 3")
    function = template_regex(build_template(ast.parse('f"invalid value in {fun.__name__}"', mode="eval").body))
    assert function.fullmatch("invalid value in jit(convert_element_type)")
    beside = template_regex(build_template(ast.parse('f"got {type(x).__name__}{rest} here"', mode="eval").body))
    assert beside.fullmatch("got int and more here")


def test_a_text_lacking_each_sequences_literal_words_in_order_is_one_the_regex_rejects():
    """Lookup tells texts apart by `literal_runs` before compiling a template's regex. No text the regex matches
    may fail that check: the words of one of its sequences, in order, from its start and to its end when literal
    text begins and ends it. Texts lacking a word, holding them out of order, or not framed so fail it."""
    import random

    from jax_errors.template import Part, folded, literal_runs

    cases = {
        'f"got {x} of {y}"': (["got 3 of 4", "got of", "got (3, of) of of"], ["of 3 got 4", "a got 3 of 4", "got 3"]),
        'f"{x} is bad"': (["3 is bad", "is bad", "isis bad"], ["3 is bad.", "bad is 3", "3 is"]),
        '"bad input: " + ("the shapes differ" if x else "the dtypes differ") + "; fix it"':
            (["bad input: the dtypes differ; fix it", "bad input: the shapes differ; fix it"],
             ["bad input: the ranks differ; fix it", "bad input: fix it"]),
        'f"the shapes {a} differ" if x else (f"the dtypes {b} differ" if y else "the ranks differ")':
            (["the shapes (3,) differ", "the ranks differ"], ["the ranks", "shapes (3,) differ"]),
        '"bad input" + (": the shapes differ" if x else "" if y else ": the dtypes differ")':
            (["bad input", "bad input: the dtypes differ"], ["bad", "input: the dtypes differ"]),
        'f"{v}" + ("aa" if c else ("cc cc cc " if d else "")) + f" {w} aa cc bb "':
            (["aa cc bb", "x aa y aa cc bb"], ["aa bb cc"]),
        'f"{self.__class__.__name__} has no attribute {name}"': (["Foo has no attribute x"], ["Foo has an attribute"]),
        'textwrap.dedent("""  indented  """)': (["indented"], ["dented", "indented twice"]),
        'msg': (["anything at all", ""], []),
        '("note: " if c else "") + f"bad value {v}" + (" (ignored)" if d else "")':  # no literal text frames these
            (["note: bad value 3", "bad value 3 (ignored)"], ["value bad", "note: bad"]),
    }
    random.seed(0)
    for source, (held, lacking) in cases.items():
        runs, regex = literal_runs(template(source)), template_regex(template(source))
        for text in held:
            assert regex.fullmatch(text) and any(run.held_by(text) for run in runs), (source, text)
        for text in lacking:
            assert not regex.fullmatch(text) and not any(run.held_by(text) for run in runs), (source, text)
        words = [word for text in held + lacking for word in text.split()] + ["(3,)", "x"]
        for _ in range(3000):
            text = folded(" ".join(random.choices(words, k=random.randint(0, 9))))
            assert not regex.fullmatch(text) or any(run.held_by(text) for run in runs), (source, text)
    # A repeated part at the end, left out: `cut_fit` completes a message with the held text, to `differences: `.
    differences = Template((Part("expr", "a"), Part("lit", " must match "), Part("expr", "b"),
                            Part("lit", ", but there are differences: "), Part("rep_begin", ""),
                            Part("lit", "\n  * at "), Part("expr", "p"), Part("rep_end", "")))
    runs, regex = literal_runs(differences), template_regex(differences)
    for text in ("x must match y, but there are differences: ", "x must match y, but there are differences: * at 0"):
        assert regex.fullmatch(text) and any(run.held_by(text) for run in runs), text
    assert not any(run.held_by("x must match y, but there are no differences") for run in runs)
    assert literal_runs(_optional_runs(2)) == tuple(dict.fromkeys(literal_runs(_optional_runs(2))))
    assert len(literal_runs(_optional_runs(2))) == 4  # each run present or not


def test_a_class_s_name_converted_by_repr_reads_a_quoted_name():
    """`{type(x).__name__!r}` is a name's repr: quoted. jax 0.4.24's `Config.__getattr__` put one more quote before
    it, so Python's own `'ArrayImpl' object has no attribute 'x'` is no message of it."""
    config = template_regex(template('''f"'{type(self).__name__!r} object has no attribute {name!r}"'''))
    assert config.fullmatch("''Config' object has no attribute 'x'")
    assert not config.fullmatch("'ArrayImpl' object has no attribute 'x'")
    operands = template_regex(template('f"unsupported operand type(s) for +: {type(a).__name__!r} and '
                                       '{type(b).__name__!r}"'))
    assert operands.fullmatch("unsupported operand type(s) for +: 'ArrayImpl' and 'jax._src.core.Foo'")
    assert not operands.fullmatch("unsupported operand type(s) for +: ArrayImpl and int")
    assert template_regex(template('"got %r" % type(x).__name__')).fullmatch("got 'int'")  # `%r` says no repr
    # A message cut short is completed with placeholders left empty (`cut_fit`), and two names side by side read as
    # one with quotes in it.
    assert operands.fullmatch("unsupported operand type(s) for +: 'ArrayImpl' and ")
    assert operands.fullmatch("unsupported operand type(s) for +: 'ArrayIm and ")  # cut inside the name
    together = template_regex(template('f"types {type(a).__name__!r}{type(b).__name__!r} differ"'))
    assert together.fullmatch("types 'A''B' differ") and not together.fullmatch("types A B differ")


def test_a_class_written_by_str_reads_as_str_writes_a_class():
    """`{type(x)}` is written `<class '...'>`: Python's own `unhashable type: 'JaxprTracer'` (#648) is no message of
    `Tracer.__hash__`'s `unhashable type: {type(self)}` (up to jax 0.4.35). A message cut inside the class still
    fits, completed with the placeholder as far as it went."""
    unhashable = template_regex(template('f"unhashable type: {type(self)}"'))
    written = "unhashable type: <class 'jax._src.interpreters.partial_eval.DynamicJaxprTracer'>"
    assert all(unhashable.fullmatch(written[:n]) for n in range(len("unhashable type: "), len(written) + 1))
    assert not unhashable.fullmatch("unhashable type: 'JaxprTracer'")
    assert not unhashable.fullmatch("unhashable type: DynamicJaxprTracer")
    # An enum's class is written `<enum 'Color'>`, a flag's `<flag 'Perm'>`: users pass their members to jit.
    for written in ("<enum 'Color'>", "<flag 'Perm'>", "<class 'pkg.Model[int]'>"):
        assert unhashable.fullmatch(f"unhashable type: {written}"), written
    for source in ('f"got {x.__class__}"', '"got %s" % type(x)', 'f"got {type(f(x))!r}"'):
        regex = template_regex(template(source))
        assert regex.fullmatch("got <class 'main.<locals>.Foo'>") and not regex.fullmatch("got Foo"), source
    # A class's name is no class written by str().
    assert template_regex(template('f"got {type(x).__name__}"')).fullmatch("got Foo")
