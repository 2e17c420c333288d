"""Messages built away from the raise: helpers of the module, lists, loops, factories, conditionals."""

import re
import sys
import textwrap

import pytest

from jax_errors.crawler.raise_sites import extract_raise_sites
from jax_errors.template import template_regex


def raised(source: str, function: str = "f"):
    """The one raise site of `function` in a module made of `source`."""
    sites = [s for s in extract_raise_sites(textwrap.dedent(source), "jax/_src/m.py")
             if s.kind == "raise" and s.qualname == function]
    assert len(sites) == 1, sites
    return sites[0]


def matches(site, message: str) -> bool:
    return template_regex(site.template).fullmatch(message) is not None


def test_a_helper_of_the_module_is_inlined_with_its_arguments():
    site = raised('''
        def _mismatch_error(fun_name, api_name, detail=None):
            msg = f"Received incompatible devices for {api_name}ted computation of {fun_name}."
            return msg

        def f(g):
            raise ValueError(_mismatch_error(g.__name__, "jit"))
    ''')
    assert site.template.text == "Received incompatible devices for jitted computation of {g.__name__}."
    assert site.template.complete and "helper" in site.template.forms
    assert matches(site, "Received incompatible devices for jitted computation of loss.")


def test_helpers_are_inlined_through_each_other_up_to_a_depth():
    site = raised('''
        def _one(x):
            return "one " + _two(x)

        def _two(x):
            return f"two {x} " + _three(x)

        def _three(x):
            return "three " + _four(x)

        def _four(x):
            return "four"

        def f(y):
            raise ValueError(_one(y))
    ''')
    # _one -> _two -> _three is inlined; the fourth helper is past MAX_HELPER_DEPTH and stays opaque.
    assert site.template.text == "one two {y} three {_four(y)}"
    assert [p.kind for p in site.template.parts][-1] == "opaque"


def test_a_cycle_between_helpers_ends():
    site = raised('''
        def _ping(x):
            return "ping " + _pong(x)

        def _pong(x):
            return "pong " + _ping(x)

        def f(y):
            raise ValueError(_ping(y))
    ''')
    assert site.template.text.startswith("ping pong ")
    assert not site.template.complete


def test_a_local_name_shadows_a_helper_of_the_module():
    site = raised('''
        def _helper(x):
            return "from the helper"

        def f(y, _helper):
            raise ValueError(_helper(y))
    ''')
    assert not site.template.complete


def test_a_helper_with_several_returns_gives_each_as_an_optional_part():
    site = raised('''
        def _dump(module):
            if module:
                return f"The module was dumped to {module}."
            else:
                return "Define JAX_DUMP_IR_TO to dump the module."

        def f(m):
            raise ValueError("Cannot lower. " + _dump(m))
    ''')
    assert site.template.complete
    assert matches(site, "Cannot lower. Define JAX_DUMP_IR_TO to dump the module.")
    assert matches(site, "Cannot lower. The module was dumped to /tmp/x.mlir.")


def test_a_list_of_lines_built_in_branches_and_a_loop():
    site = raised('''
        def f(sizes, axis_size):
            msg = ["vmap got inconsistent sizes for array axes to be mapped:\\n"]
            if axis_size is not None:
                msg.append(f"  * the `axis_size` argument was {axis_size};\\n")
            for name, size in sizes:
                msg.append(f"  * one axis had size {size}: argument {name};\\n")
            raise ValueError(''.join(msg)[:-2])
    ''')
    assert site.template.complete and {"list", "sliced"} <= site.template.forms
    kinds = [p.kind for p in site.template.parts]
    assert kinds.count("opt_begin") >= 1 and kinds.count("rep_begin") == 1
    head = "vmap got inconsistent sizes for array axes to be mapped:\n"
    assert matches(site, head + "  * one axis had size 2: argument x")
    assert matches(site, head + "  * the `axis_size` argument was 3;\n  * one axis had size 2: argument x;\n"
                             "  * one axis had size 5: argument y")
    assert not matches(site, "vmap got consistent sizes")


def test_additions_in_a_loop_repeat():
    site = raised('''
        def f(names):
            msg = "Unknown names:"
            for name in names:
                msg += f" {name}"
            raise KeyError(msg)
    ''')
    assert [p.kind for p in site.template.parts] == ["lit", "rep_begin", "lit", "expr", "rep_end"]
    assert matches(site, "Unknown names: a b c") and matches(site, "Unknown names:")


def test_a_factory_of_the_module_gives_the_class_and_the_message():
    site = raised('''
        def _unsupported_lowering_error(platform: str) -> Exception:
            return ValueError(
                f"Cannot lower pallas_call on platform: {platform}. To use Pallas on GPU,"
                " install jaxlib GPU.")

        def f(ctx):
            raise _unsupported_lowering_error("tpu")
    ''')
    assert (site.exc_class, site.exc_expr) == ("ValueError", "_unsupported_lowering_error")
    assert site.template.text == "Cannot lower pallas_call on platform: tpu. To use Pallas on GPU, install jaxlib GPU."
    assert "factory" in site.template.forms


def test_a_factory_that_names_the_exception_before_returning_it_gives_its_class_and_message():
    """`key_reuse_error_with_source_traceback` makes `err = KeyReuseError(message)`, attaches a traceback as its
    cause, and returns `err`."""
    source = '''
        class KeyReuseError(RuntimeError):
            pass

        def key_reuse_error_with_source_traceback(message, traceback):
            err = KeyReuseError(message)
            if traceback is not None:
                context_err = KeyReuseError("context").with_traceback(traceback)
                err.__cause__ = context_err
            return err

        def f(name, i, tb):
            raise key_reuse_error_with_source_traceback(f"Previously-consumed key passed to {name} at index {i}", tb)
    '''
    site = raised(source)
    assert (site.exc_class, site.exc_expr) == ("jax._src.m.KeyReuseError", "key_reuse_error_with_source_traceback")
    assert site.template.text == "Previously-consumed key passed to {name} at index {i}"
    assert "factory" in site.template.forms
    # a detail passed into the factory's own words stays a placeholder: raises passing others keep one template
    detail = raised('''
        def escaped_tracer_error(detail):
            return RuntimeError(f"Encountered an unexpected tracer. Details: {detail}")

        def f(a, b):
            raise escaped_tracer_error(f"Can't lift sublevels {a} to {b}")
    ''')
    assert detail.template.text == 'Encountered an unexpected tracer. Details: {(f"Can\'t lift sublevels {a} to {b}")}'
    # bound twice, or by a loop, the name is not known to hold the exception made first
    for binding in ("    err = KeyReuseError(message)\n            err = RuntimeError(message)",
                    "    for err in [KeyReuseError(message)]:\n                pass"):
        twice = raised(source.replace("    err = KeyReuseError(message)", binding))
        assert twice.exc_class is None and twice.exc_expr == "key_reuse_error_with_source_traceback"


def test_a_bound_format_inside_a_concatenation_and_a_caught_error_in_an_f_string():
    site = raised('''
        def f(x, hint):
            fmt = "Gradient only defined for scalar-output functions. Output {}.".format
            raise TypeError(fmt(x) + " To get the gradient, reduce the output.")
    ''')
    assert site.template.text == ("Gradient only defined for scalar-output functions. Output {x}. "
                                  "To get the gradient, reduce the output.")
    caught = raised('''
        def f(g):
            try:
                g()
            except RuntimeError as e:
                raise ValueError(f"compilation failed: {e}") from e
    ''')
    # An f-string's value is a placeholder, the text around it kept; `str(e)` alone is another error's words.
    assert caught.template.text == "compilation failed: {e}" and caught.template.complete
    wrapped = raised('''
        def f(g):
            try:
                g()
            except RuntimeError as exc:
                raise ValueError(str(exc)) from exc
    ''')
    assert wrapped.template.text == "{str(exc)}" and not wrapped.template.complete


def test_conditionals_and_repeated_text():
    site = raised('''
        def f(pred):
            divider = "-" * 3
            raise TypeError("Pred must be a scalar, got " + (f"type {type(pred)}" if pred else "a shape.") + divider)
    ''')
    assert site.template.complete and site.template.text.endswith("---")
    assert matches(site, "Pred must be a scalar, got type <class 'list'>---")
    assert matches(site, "Pred must be a scalar, got a shape.---")


def test_a_name_that_holds_one_of_several_strings_stays_a_placeholder():
    """`%s` of a parameter reassigned on one path only: its value is shown, not a guess at its text."""
    site = raised('''
        def f(mode=None):
            if mode is None:
                mode = "high" if flag else "low"
            raise ValueError("Must provide valid mode for gumbel got: %s" % mode)
    ''')
    assert site.template.text == "Must provide valid mode for gumbel got: {mode}"


@pytest.mark.parametrize("depth", [2, 40])
def test_long_chains_of_helpers_stay_bounded(depth):
    helpers = "\n".join(f"def _h{i}(x):\n    return 'h{i} ' + _h{i + 1}(x)\n" for i in range(depth))
    source = helpers + f"\ndef _h{depth}(x):\n    return 'end'\n\ndef f(y):\n    raise ValueError(_h0(y))\n"
    site = raised(source)
    assert re.fullmatch(r"h0 (h\d+ )*(end|\{_h\d+\(y\)\})", site.template.text)
    assert len(site.template.parts) <= 8


def test_a_value_rebound_on_another_path_is_shown_by_its_name():
    site = raised('''
        def f(others):
            for o in others:
                if isinstance(o, float):
                    o = convert(o)
                elif not isinstance(o, Value):
                    raise NotImplementedError(o)
    ''')
    assert site.template.text == "{o}"


def test_helpers_and_factories_of_other_modules_word_the_message_where_it_is_shown():
    """Each blob is scanned alone; what another module's function words is put in by `as_raised`."""
    from jax_errors.template import Wording, as_raised

    helpers = extract_raise_sites(textwrap.dedent('''
        from jax._src.errors import UnexpectedTracerError

        def _mismatch_error(api_name):
            return f"Received incompatible devices for {api_name}ted computation."

        def escaped_tracer_error(tracer, detail=None):
            msg = f"Encountered an unexpected tracer of type {tracer.aval}."
            return UnexpectedTracerError(msg)

        def shape(x):
            return x.shape
    '''), "jax/_src/stages.py")
    worded = [s for s in helpers if s.kind == "function_message"]
    assert {(s.exc_class, s.exc_expr) for s in worded} == {
        ("jax._src.stages._mismatch_error", "_mismatch_error"),
        ("jax._src.stages.escaped_tracer_error", "jax._src.errors.UnexpectedTracerError"),
    }
    wording = Wording.of_sites((s.exc_class, s.exc_expr, s.template) for s in worded)
    users = {s.qualname: s for s in extract_raise_sites(textwrap.dedent('''
        from jax._src import stages

        def f(fails):
            raise ValueError(stages._mismatch_error("jit"))

        def g(t):
            raise stages.escaped_tracer_error(t)
    '''), "jax/_src/pjit.py") if s.kind == "raise"}
    f, g = users["f"], users["g"]
    assert not f.template.complete and not g.template.complete
    assert as_raised(f.template, f.exc_class, wording).text == \
        "Received incompatible devices for {api_name}ted computation."
    assert g.exc_class == "jax._src.stages.escaped_tracer_error"
    assert as_raised(g.template, g.exc_class, wording).text == "Encountered an unexpected tracer of type {tracer.aval}."
    # The factory's class is what the raise raises; a helper that returns words makes no class.
    assert wording.class_raised(g.exc_class, g.exc_expr, g.template) == "jax._src.errors.UnexpectedTracerError"
    assert wording.class_raised(f.exc_class, f.exc_expr, f.template) is None
    assert wording.class_raised(None, "e", f.template) is None
    assert wording.words_from(f.template, f.exc_class) == ("jax._src.stages._mismatch_error",)
    assert wording.words_from(g.template, g.exc_class) == ("jax._src.stages.escaped_tracer_error",)
    # A name two modules define is ambiguous: the helper is left as it is.
    twice = Wording({"jax.a._mismatch_error": f.template, "jax.b._mismatch_error": f.template})
    assert as_raised(f.template, f.exc_class, twice) is f.template


def test_makers_of_exceptions_a_function_yields_word_the_raise_of_one_of_them():
    """`tree_util._prefix_error` yields `lambda name: ValueError(...)`; `prefix_errors` returns them in a list; callers
    raise the first: `e, *_ = prefix_errors(specs, args); raise e('shard_map in_specs')`. The raise shows one of the
    makers' messages, not its argument."""
    from jax_errors.template import Wording, as_raised

    sites = extract_raise_sites(textwrap.dedent('''
        def _prefix_error(path, prefix, full):
            if type(prefix) != type(full):
                yield lambda name: ValueError(f"pytree structure error: different types at key path {name}{path}")
                return
            if len(prefix) != len(full):
                yield lambda name: ValueError(
                    f"pytree structure error: different lengths of {type(prefix).__name__} at key path\\n"
                    f"    {name}{path}")
                return
            yield from _prefix_error(path, prefix[0], full[0])

        def prefix_errors(prefix, full):
            return list(_prefix_error((), prefix, full))

        def shape(x):
            return list(x.shape)
    '''), "jax/_src/tree_util.py")
    worded = {s.exc_class: s for s in sites if s.kind == "function_message"}
    assert set(worded) == {"jax._src.tree_util._prefix_error", "jax._src.tree_util.prefix_errors"}
    assert worded["jax._src.tree_util.prefix_errors"].exc_expr == "ValueError"
    assert worded["jax._src.tree_util.prefix_errors"].template.text.startswith(
        "pytree structure error: different types")  # the makers in source order: the first one shown first
    wording = Wording.of_sites((path, s.exc_expr, s.template) for path, s in worded.items())
    users = {s.qualname: s for s in extract_raise_sites(textwrap.dedent('''
        from jax._src.tree_util import prefix_errors
        from jax._src import tree_util

        def unpacked(specs, args):
            e, *_ = prefix_errors(specs, args)
            raise e("shard_map in_specs") from None

        def looped(specs, args):
            for e in tree_util.prefix_errors(specs, args):
                raise e("pmap in_axes")

        def indexed(specs, args):
            e = prefix_errors(specs, args)[0]
            raise e("jit in_shardings")

        def taken_next(tree, other):
            try:
                return flatten_up_to(tree, other)
            except Exception as e:
                err = next(tree_util._prefix_error((), tree, other), None)
                raise (err('tree_map tree') if err is not None else e) from None

        def named_first(specs, args):
            errors = prefix_errors(specs, args)
            if errors:
                e = errors[0]
                raise e("pjit in_axis_resources")

        def looped_named(specs, args):
            errors = tree_util.prefix_errors(specs, args)
            for e in errors:
                raise e("pmap in_axes")

        def named_other(specs, args):
            errors = prefix_errors(specs, args)
            errors = [ValueError]
            e = errors[0]
            raise e("not a maker")

        def rebound(specs, args):
            e, *_ = prefix_errors(specs, args)
            e = ValueError
            raise e("not a maker")
    '''), "jax/_src/shard_map.py") if s.kind == "raise"}
    message = "pytree structure error: different lengths of tuple at key path\n    shard_map in_specs"
    for name in ("unpacked", "looped", "indexed", "taken_next", "named_first", "looped_named"):
        shown = as_raised(users[name].template, users[name].exc_class, wording)
        assert template_regex(shown).fullmatch(message) is not None, name
        assert "different types at key path" in shown.text and "in_specs" not in users[name].template.text
        # `raise e(...)` raises the class the makers make, not one named `e`.
        user = users[name]
        assert user.exc_class is None and wording.class_raised(None, user.exc_expr, user.template) == "ValueError"
    # A call of what a maker made (`exc.with_traceback(...)`) is no maker raised.
    assert wording.class_raised(None, "exc.with_traceback", users["unpacked"].template) is None
    assert users["rebound"].template.text == "not a maker"  # the name was bound again to a class
    assert users["named_other"].template.text == "not a maker"  # the list was bound again to a list of a class


def test_a_class_raised_by_a_path_that_re_exports_it_is_worded_by_its_name():
    """jax 0.2.10-0.4.7 raised `jax.errors.TracerIntegerConversionError`, which `jax._src.errors` defines."""
    from jax_errors.template import Part, Template, Wording, as_raised

    words = Template((Part("lit", "The __index__() method was called on the JAX Tracer object "), Part("expr", "tracer")))
    raised_as = Template((Part("expr", "self"),))
    wording = Wording({"jax._src.errors.TracerIntegerConversionError": words})
    assert as_raised(raised_as, "jax.errors.TracerIntegerConversionError", wording) is words
    # A name two classes have tells neither apart.
    twice = Wording({"jax._src.errors.TracerIntegerConversionError": words,
                     "jax.experimental.errors.TracerIntegerConversionError": words})
    assert as_raised(raised_as, "jax.errors.TracerIntegerConversionError", twice) is raised_as


def test_a_message_passed_in_reads_as_each_caller_of_the_module_words_it():
    site = raised('''
        def _check_specs_match(lhs_spec, rhs_spec, msg):
            for l, r in zip(lhs_spec, rhs_spec):
                if l != r:
                    raise ShardingTypeError(msg)

        def rule(lhs, rhs):
            msg = f"dot_general requires lhs batch dimensions to have the consistent sharding, got {lhs}."
            _check_specs_match(lhs, rhs, msg)
            _check_specs_match(rhs, lhs, msg=f"contracting dimensions need consistent sharding, got {rhs}.")
            _check_specs_match(rhs, lhs, msg)  # the same words again: one variant
    ''', "_check_specs_match")
    assert "passed_in" in site.template.forms and site.template.complete
    assert matches(site, "dot_general requires lhs batch dimensions to have the consistent sharding, got ('x',).")
    assert matches(site, "contracting dimensions need consistent sharding, got (None,).")
    assert [p.kind for p in site.template.parts].count("opt_begin") == 2


def test_a_parameter_no_caller_words_stays_opaque():
    site = raised('''
        def fail(msg):
            raise ValueError(msg)

        def g(text):
            fail(text)
    ''', "fail")
    assert site.template.text == "{msg}" and not site.template.complete


def test_a_message_doubled_many_times_stays_bounded():
    """`m += m` forty times: resolving is linear in the statements, and the template has a size cap."""
    from jax_errors.crawler.messages import MAX_TEMPLATE_CHARS, MAX_TEMPLATE_PARTS

    site = raised("def f():\n    m = 'ab'\n" + "    m += m\n" * 40 + "    raise ValueError(m)\n")
    assert len(site.template.parts) <= MAX_TEMPLATE_PARTS
    assert sum(len(p.text) for p in site.template.parts) <= MAX_TEMPLATE_CHARS


def test_a_line_of_thousands_of_raises_keeps_each_excerpt_small():
    from jax_errors.crawler.raise_sites import EXCERPT_LINE_CHARS

    line = "; ".join(f"raise ValueError('e{i}')" for i in range(2000))
    sites = extract_raise_sites(f"def f(x):\n    if x: {line}\n", "jax/_src/m.py")
    assert len(sites) == 2000
    assert max(len(site.excerpt) for site in sites) <= 2 * (EXCERPT_LINE_CHARS + 2)


def test_a_value_raised_as_it_is_is_complete_but_words_made_elsewhere_are_not():
    sources = {
        "value": ("def f(eqn):\n    raise NotImplementedError(eqn.primitive)", "{eqn.primitive}", True),
        "type": ("def f(x):\n    raise TypeError(type(x))", "{type(x)}", True),
        "number": ("def f(n, b):\n    raise ValueError(n * b // 8)", "{n * b // 8}", True),
        "tuple": ("def f(a, b):\n    raise ValueError((a, b))", "{(a, b)}", True),
        "message_parameter": ("def f(msg):\n    raise ValueError(msg)", "{msg}", False),
        "message_attribute": ("def f(err):\n    raise ValueError(err.message)", "{err.message}", False),
        "caught": ("def f(g):\n    try:\n        g()\n    except KeyError as problem_found:\n"
                   "        raise ValueError(problem_found)", "{problem_found}", False),
        "words_in_a_list": ("def f(msgs):\n    raise ValueError(msgs[0][2:])", "{msgs[0][2:]}", False),
        "a_builtin_shadowed": ("def f(type):\n    raise ValueError(type(3))", "{type(3)}", False),
    }
    for name, (source, text, complete) in sources.items():
        site = raised(source)
        assert (site.template.text, site.template.complete, site.template.has_words) == (text, complete, False), name


def test_a_factory_of_another_module_does_not_make_its_argument_the_message():
    site = raised("from jax._src import core\n\ndef f(t):\n    raise core.escaped_tracer_error(t)")
    assert site.template.text == "{t}" and not site.template.complete


def test_a_module_level_constant_is_read_where_the_message_uses_it():
    source = '''
        _HINT = ("Use .at[].add() instead: "
                 "arrays are immutable.")
        if TPU:
            _NOTE = "on TPU"
        else:
            _NOTE = "elsewhere"

        def f(x):
            raise ValueError(f"cannot add in place to {x}. " + _HINT)

        def g():
            raise ValueError(_NOTE)
    '''
    site = raised(source)
    assert site.template.text == "cannot add in place to {x}. Use .at[].add() instead: arrays are immutable."
    assert site.template.spelled_out
    # A module name given one of several texts holds words not known here: not a value.
    noted = raised(source, "g").template
    assert noted.text == "{_NOTE}" and not noted.complete


def test_a_function_defined_inside_the_raising_one_is_inlined():
    site = raised('''
        def f(block_shape, rank):
            def err_details():
                return f"Block shape is {block_shape}, rank {rank}."
            if rank < 1:
                raise ValueError("Blocks of rank >= 1 only. " + err_details())
    ''')
    assert site.template.text == "Blocks of rank >= 1 only. Block shape is {block_shape}, rank {rank}."
    assert site.template.spelled_out and "helper" in site.template.forms


def test_a_list_written_out_is_joined_with_its_separator():
    site = raised('''
        def f(msg, jaxpr):
            sep = "\\n\\n"
            raise TypeError(sep.join([msg, "while checking jaxpr:", str(jaxpr)]))
    ''')
    assert site.template.text == "{msg}\n\nwhile checking jaxpr:\n\n{str(jaxpr)}"
    assert site.template.has_words and not site.template.complete  # `msg` is passed in
    assert matches(site, "bad eqn\n\nwhile checking jaxpr:\n\n{ lambda ; }")


def test_text_rewrapped_by_textwrap_fill_keeps_its_words():
    site = raised('import textwrap\n\ndef f():\n    raise ValueError(textwrap.fill("It appears the account lacks rights.", width=80))')
    assert site.template.text == "It appears the account lacks rights." and site.template.spelled_out


def test_an_exception_made_at_module_level_and_raised_in_a_function_keeps_its_message():
    site = raised('''
        functionalization_error = ValueError(
            "checkify does not support this effect. " "Use checkify.check instead.")

        def f():
            raise functionalization_error
    ''')
    assert (site.exc_class, site.template.text) == (
        "ValueError", "checkify does not support this effect. Use checkify.check instead.")


def test_a_call_is_words_made_elsewhere_when_it_is_the_whole_message_or_named_so():
    whole = raised("def f(x):\n    raise ValueError(describe(x))").template
    named = raised("def f(x):\n    raise ValueError('Bad shape. ' + x._origin_msg())").template
    value = raised("def f(frame):\n    raise ValueError('Leaked at ' + summarize(frame))").template
    assert [t.complete for t in (whole, named, value)] == [False, False, True]
    assert value.text == "Leaked at {summarize(frame)}"


def test_a_method_of_the_class_that_makes_the_exception_words_it():
    site = raised('''
        class Parser:
            def parse_err(self, tok, detail):
                msg = f"syntax error in symbolic shape {self.spec}: {detail}. "
                if tok is not None:
                    msg += f"Parsed '{tok.line}'."
                return ValueError(msg)

            def f(self, tok):
                raise self.parse_err(tok, "expecting integer")
    ''', "Parser.f")
    assert (site.exc_class, site.template.text) == (
        "ValueError", "syntax error in symbolic shape {self.spec}: expecting integer. Parsed '{tok.line}'.")
    assert "factory" in site.template.forms and site.template.spelled_out


def _executed_lines(source: str) -> int:
    """How many lines (and calls) of Python extracting a file's raise sites executes: a count, not a time."""
    executed = 0

    def tracer(frame, event, arg):
        nonlocal executed
        executed += 1
        return tracer

    sys.settrace(tracer)
    try:
        extract_raise_sites(source, "jax/_src/m.py")
    finally:
        sys.settrace(None)
    return executed


def _function_raising(n: int, step: str, raise_with: str) -> str:
    """One function that repeats `step` and a guarded raise n times."""
    return "def f(x):\n    msg = 'a'\n    parts = []\n" + "".join(
        f"    {step.format(i=i)}\n    if x == {i}:\n        raise ValueError({raise_with})\n" for i in range(n))


@pytest.mark.parametrize("step, raise_with", [
    ("msg = 'm{i}' + str(x)", "msg"),  # a name bound again before each raise
    ("parts.append('p{i}')", "' '.join(parts)"),  # a list that grows before each raise
], ids=["rebound name", "growing list"])
def test_extraction_work_grows_linearly_with_a_function_s_raises(step, raise_with, monkeypatch):
    """Twice the raises, twice the work: each raise once read every earlier binding (a 600 KB file took minutes)."""
    monkeypatch.setattr("jax_errors.crawler.messages.MAX_TEMPLATE_PARTS", 40)  # so both sizes are past the cap
    once, twice = (_executed_lines(_function_raising(n, step, raise_with)) for n in (150, 300))
    assert twice / once < 2.2


def test_a_long_chain_of_message_additions_costs_linear_work_in_the_template_cap(monkeypatch):
    """`msg += ...` before each raise: the sum is built once per raise, not copied at each addition."""
    source = "def f(x):\n    msg = 'a'\n" + "".join(
        f"    if x == {i}:\n        msg += 'm{i}'\n        raise ValueError(msg)\n" for i in range(300))
    monkeypatch.setattr("jax_errors.crawler.messages.MAX_TEMPLATE_PARTS", 40)
    small_cap = _executed_lines(source)
    monkeypatch.setattr("jax_errors.crawler.messages.MAX_TEMPLATE_PARTS", 80)
    assert _executed_lines(source) / small_cap < 1.9
