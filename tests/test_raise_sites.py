import json
import textwrap
from dataclasses import asdict

import pytest

from jax_errors.crawler.raise_sites import extract_raise_sites
from jax_errors.exceptions import SourceParseError
from jax_errors.template import template_regex

SAMPLE = textwrap.dedent('''
    import textwrap
    from jax._src import core
    from jax._src.errors import ConcretizationTypeError as CTE
    from . import dtypes
    from .lax import parallel as par


    class LocalError(ValueError):
        pass


    def check(x, axis_name):
        if not x.mat.varying:
            raise ValueError('all_gather_reduced only accepts inputs that are'
                             f' varying. Got {x.str_short(True)}')
        elif x.ndim > 2:
            msg = "too many dims: "
            msg += f"{x.ndim}"
            raise TypeError(msg)
        else:
            raise core.ConcretizationTypeError(x, "context")


    class Mesh:
        def __init__(self, names):
            def inner():
                raise LocalError("bad %s" % (names,))
            try:
                inner()
            except KeyError as e:
                raise dtypes.TypePromotionError("cannot {} {}".format(names, 3)) from e
            except IndexError as err:
                raise err
            except Exception:
                raise
            while names:
                raise par.AxisError
            err = CTE("built earlier")
            raise err
''')


def sites():
    return extract_raise_sites(SAMPLE, "jax/_src/sample.py")


def test_every_raise_is_found_with_its_line_range():
    found = sites()
    assert [(s.lineno, s.end_lineno) for s in found] == [
        (15, 16), (20, 20), (22, 22), (28, 28), (32, 32), (34, 34), (36, 36), (38, 38), (40, 40)
    ]


def test_qualnames_follow_python():
    assert [s.qualname for s in sites()][2:5] == ["check", "Mesh.__init__.<locals>.inner", "Mesh.__init__"]


JAX_ERROR_CLASSES = textwrap.dedent('''
    class _JAXErrorMixin:
      _error_page = 'https://docs.jax.dev/en/latest/101/errors.html'
      _module_name = "jax.errors"

      def __init__(self, message: str):
        error_page = self._error_page
        module_name = self._module_name
        class_name = self.__class__.__name__
        error_msg = f'{message}\\nSee {error_page}#{module_name}.{class_name}'
        super().__init__(error_msg)

    class JAXTypeError(_JAXErrorMixin, TypeError):
      pass

    class ConcretizationTypeError(JAXTypeError):
      def __init__(self, tracer, context=""):
        super().__init__("Abstract tracer value encountered where concrete value is expected: "
                         f"{tracer._error_repr()}\\n{context}")

    class NonConcreteBooleanIndexError(JAXTypeError):
      def __init__(self, tracer):
        super().__init__(f"Array boolean indices must be concrete; got {tracer}\\n")

    class TracerBoolConversionError(ConcretizationTypeError):
      def __init__(self, tracer):
        JAXTypeError.__init__(self, f"Attempted boolean conversion of {tracer._error_repr()}.")

    class UnexpectedTracerError(JAXTypeError):
      def __init__(self, msg: str):
        super().__init__(msg)

    class KeyReuseError(JAXTypeError):
      pass
''')
DOCS = "\nSee https://docs.jax.dev/en/latest/101/errors.html#jax.errors."


def test_jax_error_classes_record_the_line_their_mixin_appends():
    """`_JAXErrorMixin.__init__` appends a line naming the class's documentation to every message, of class
    attributes and the raised class's own name; each class's words (or a message passed in) come first."""
    from jax_errors.template import APPENDED, WRAPPED, Part, without_appended

    sites = {s.exc_expr: s for s in extract_raise_sites(JAX_ERROR_CLASSES, "jax/_src/errors.py")}
    assert "_JAXErrorMixin" not in sites  # a class of no bases is a mixin, never raised
    assert {s.kind for s in sites.values()} == {"class_message"}
    bool_words = sites["TracerBoolConversionError"].template
    # Through `JAXTypeError.__init__`, which it names: not ConcretizationTypeError's words.
    assert bool_words.text == ("Attempted boolean conversion of {tracer._error_repr()}." + DOCS
                               + "TracerBoolConversionError")
    assert Part("opt_begin", APPENDED) in bool_words.parts
    assert without_appended(bool_words).text == "Attempted boolean conversion of {tracer._error_repr()}."
    # Under `super()`, ConcretizationTypeError's words: a method's result of the tracer is no message passed in.
    assert sites["ConcretizationTypeError"].template.text.endswith("{context}" + DOCS + "ConcretizationTypeError")
    # The tracer itself is: its text stands where the words put it, as a raise's argument.
    assert sites["NonConcreteBooleanIndexError"].template.text.startswith(
        "Array boolean indices must be concrete; got {<message>}")
    # A message passed in, by `__init__(self, msg)` or by the mixin's own, inherited without an `__init__`.
    for name in ("UnexpectedTracerError", "KeyReuseError", "JAXTypeError"):
        assert sites[name].template.parts[0] == Part("expr", WRAPPED)
        assert sites[name].template.text.endswith(DOCS + name)


def test_a_raise_of_a_wrapping_class_reads_its_words_then_the_class_s_line():
    from jax_errors.template import Part, Template, Wording, as_raised, template_regex

    classes = {s.exc_expr: s for s in extract_raise_sites(JAX_ERROR_CLASSES, "jax/_src/errors.py")}
    wording = Wording({f"jax._src.errors.{name}": site.template for name, site in classes.items()})
    own = Template((Part("lit", "Encountered an unexpected tracer. "), Part("expr", "detail")))
    raised = as_raised(own, "jax._src.errors.UnexpectedTracerError", wording)
    assert raised.text == "Encountered an unexpected tracer. {detail}" + DOCS + "UnexpectedTracerError"
    leak_class = "jax._src.errors.UnexpectedTracerError"
    assert wording.words_from(own, leak_class) == (leak_class,)
    # The whole message fits, and so does one pasted without the class's line.
    regex = template_regex(raised)
    assert regex.fullmatch("Encountered an unexpected tracer. It leaked." + DOCS + "UnexpectedTracerError")
    assert regex.fullmatch("Encountered an unexpected tracer. It leaked.")
    # Fuzzy matching and a match's coverage read the raise's words alone: a message pasted without the line,
    # or with it, is weighed against those.
    from jax_errors.lookup.index import Entry, skeleton_key
    assert skeleton_key(raised) == skeleton_key(own) == "encountered an unexpected tracer."
    assert Entry("a", "E", raised, "p.py", 1, "s").literal_length == Entry("a", "E", own, "p.py", 1, "s").literal_length
    # A raise of no words of its own gets no words from a class that only wraps: it stays as it was.
    bare = Template((Part("expr", "msg"),))
    assert as_raised(bare, "jax._src.errors.UnexpectedTracerError", wording) is bare
    # A raise of no words of a class that builds its own: the class's words, its line included.
    bool_words = classes["TracerBoolConversionError"].template
    assert as_raised(bare, "jax.errors.TracerBoolConversionError", wording) is bool_words
    # A class of another module that does not wrap leaves a worded raise as it is.
    assert as_raised(own, "ValueError", wording) is own


def test_exception_classes_resolve_through_imports():
    assert [s.exc_class for s in sites()] == [
        "ValueError", "TypeError", "jax._src.core.ConcretizationTypeError", "jax._src.sample.LocalError",
        "jax._src.dtypes.TypePromotionError", None, None, "jax._src.lax.parallel.AxisError",
        "jax._src.errors.ConcretizationTypeError",
    ]


def test_templates_include_messages_built_earlier():
    templates = [s.template.text for s in sites()]
    assert templates[0] == "all_gather_reduced only accepts inputs that are varying. Got {x.str_short(True)}"
    assert templates[1] == "too many dims: {x.ndim}"
    assert templates[3] == "bad {names}"
    assert templates[4] == "cannot {names} {3}"
    assert templates[8] == "built earlier"


def test_guards_record_the_innermost_condition():
    guards = [(s.guard.kind, s.guard.condition) if s.guard else None for s in sites()]
    assert guards[0] == ("if", "not x.mat.varying")
    assert guards[1] == ("if", "x.ndim > 2")
    assert guards[2] == ("else", "not (x.ndim > 2)")
    assert guards[4] == ("except", "KeyError")
    assert guards[7] == ("while", "names")
    assert guards[3] is None


def test_reraises_are_recorded_as_such():
    kinds = [s.kind for s in sites()]
    assert kinds[5:7] == ["raise_variable", "reraise"]
    assert sites()[4].cause == "e"


def test_excerpt_surrounds_the_raise():
    site = sites()[0]
    lines = site.excerpt.splitlines()
    assert lines[site.lineno - site.excerpt_start].strip().startswith("raise ValueError")


def test_a_file_that_does_not_parse_says_where():
    with pytest.raises(SourceParseError) as info:
        extract_raise_sites("def f(:\n    raise ValueError('x')\n", "jax/broken.py")
    assert info.value.path == "jax/broken.py"
    assert info.value.lineno == 1
    assert str(info.value).startswith("cannot parse jax/broken.py:1: ")


def test_python_312_syntax_parses():
    source = "def first[T](xs: list[T]) -> T:\n    raise ValueError(f\"{'nested' + f'{xs!r}'} empty\")\n"
    [site] = extract_raise_sites(source, "jax/new.py")
    assert site.qualname == "first"


def test_extraction_matches_snapshot(snapshot):
    actual = [
        {**asdict(s), "template": s.template.to_json(), "template_text": s.template.text,
         "forms": sorted(s.template.forms), "complete": s.template.complete}
        for s in sites()
    ]
    snapshot("raise_sites_sample.json", json.dumps(actual, indent=2, sort_keys=True) + "\n")


def test_additions_under_other_branches_are_optional():
    source = textwrap.dedent('''
        def check(args, kwargs):
            msg = "bad specification"
            if args:
                msg += f" for {len(args)} positional arguments"
            elif kwargs:
                msg += " for keyword arguments"
            msg += "."
            raise ValueError(msg)
    ''')
    [site] = extract_raise_sites(source, "jax/spec.py")
    assert site.template.text == "bad specification for {len(args)} positional arguments for keyword arguments."
    assert site.template.complete
    regex = template_regex(site.template)
    assert regex.fullmatch("bad specification for 2 positional arguments.")
    assert regex.fullmatch("bad specification for keyword arguments.")
    assert regex.fullmatch("bad specification.")
    assert not regex.fullmatch("bad specification")


def test_a_bound_format_method_is_read_as_a_format_call():
    source = textwrap.dedent('''
        def _check_scalar(x):
            msg = "Gradient only defined for scalar-output functions. Output {}.".format
            raise TypeError(msg(f"had shape: {x.shape}"))
    ''')
    [site] = extract_raise_sites(source, "jax/api.py")
    assert site.template.text == "Gradient only defined for scalar-output functions. Output had shape: {x.shape}."
    assert site.template.complete


def test_exception_classes_record_the_message_their_init_builds():
    source = textwrap.dedent('''
        class ConcretizationTypeError(TypeError):
            def __init__(self, tracer, context=""):
                super().__init__(
                    "Abstract tracer value encountered where concrete value is expected: "
                    f"{tracer._error_repr()}\\n{context}")

        class PassThrough(TypeError):
            def __init__(self, msg):
                super().__init__(msg)
    ''')
    [site] = extract_raise_sites(source, "jax/_src/errors.py")
    assert (site.kind, site.exc_class, site.qualname) == (
        "class_message", "jax._src.errors.ConcretizationTypeError", "ConcretizationTypeError.__init__")
    assert site.template.text.startswith("Abstract tracer value encountered where concrete value is expected: {")


def test_a_class_message_follows_its_bases_as_python_runs_them():
    """The `__init__`'s first parameter is the message passed in wherever the words put it; `super()` runs the first
    base's constructor (none of this module's when that base is another module's); a base named by a dotted path is
    found by its name; a class attribute read by the class's name is written in."""
    from jax_errors.template import Part, Template, Wording, as_raised

    source = JAX_ERROR_CLASSES + textwrap.dedent('''
        class Prefixed(JAXTypeError):
          def __init__(self, msg):
            super().__init__("Prefixed: " + msg)

        class PythonFirst(TypeError, _JAXErrorMixin):
          pass

        class Dotted(JAXTypeError):
          def __init__(self, tracer):
            errors.JAXTypeError.__init__(self, f"Dotted words about {tracer._error_repr()}")

        class Inconclusive(JAXTypeError):
          _help = "\\nSee the shape polymorphism docs."
          def __init__(self, message):
            super().__init__(f"{message}{Inconclusive._help}")

        class BadShape(ValueError):
          def __init__(self, shape):
            super().__init__(f"{shape} is not a valid shape")
    ''')
    sites = {s.exc_expr: s for s in extract_raise_sites(source, "jax/_src/errors.py")}
    wording = Wording({f"jax._src.errors.{name}": site.template for name, site in sites.items()})
    said = Template((Part("lit", "the words"),))
    assert as_raised(said, "jax._src.errors.Prefixed", wording).text == "Prefixed: the words" + DOCS + "Prefixed"
    assert "PythonFirst" not in sites  # TypeError.__init__ runs, not the mixin's
    assert sites["Dotted"].template.text.startswith("Dotted words about {tracer._error_repr()}" + DOCS + "Dotted")
    assert as_raised(said, "jax._src.errors.Inconclusive", wording).text == (
        "the words\nSee the shape polymorphism docs." + DOCS + "Inconclusive")
    # A class whose words hold the value passed in: a raise of no words reads them around its value.
    value = Template((Part("expr", "x.shape"),))
    assert as_raised(value, "jax._src.errors.BadShape", wording).text == "{x.shape} is not a valid shape"


def test_a_function_making_exceptions_of_a_wrapping_class_reads_its_words_then_the_class_s_line():
    """`raise core.escaped_tracer_error(t)` from another module: the factory's words, then the line
    `UnexpectedTracerError` appends."""
    from jax_errors.template import Part, Template, Wording, as_raised

    classes = {s.exc_expr: s for s in extract_raise_sites(JAX_ERROR_CLASSES, "jax/_src/errors.py")}
    factory = "jax._src.core.escaped_tracer_error"
    words = Template((Part("lit", "Encountered an unexpected tracer. "), Part("expr", "detail")))
    wording = Wording({"jax._src.errors.UnexpectedTracerError": classes["UnexpectedTracerError"].template,
                       factory: words}, {factory: "jax._src.errors.UnexpectedTracerError"})
    expected = "Encountered an unexpected tracer. {detail}" + DOCS + "UnexpectedTracerError"
    assert as_raised(Template((Part("opaque", "t"),)), factory, wording).text == expected  # raised as the factory
    called = Template((Part("opaque", "core.escaped_tracer_error(t)"),))
    assert as_raised(called, None, wording).text == expected  # its call spliced into a raise


DEPRECATING_MODULE = textwrap.dedent('''
    from jax._src.api import device_put as _deprecated_device_put

    _deprecations = {
        # Removed for v0.6.0
        "tree_map": (
            "jax.tree_map was removed in JAX v0.6.0: use jax.tree.map "
            "(jax v0.4.25 or newer) or jax.tree_util.tree_map (any JAX version).",
            None,
        ),
        "device_put_replicated": (
            "jax.device_put_replicated is deprecated; use jax.device_put instead.",
            _deprecated_device_put,
        ),
    }

    import typing as _typing
    if _typing.TYPE_CHECKING:
      pass
    else:
      from jax._src.deprecations import deprecation_getattr as _deprecation_getattr
      __getattr__ = _deprecation_getattr(__name__, _deprecations)
      del _deprecation_getattr
''')


def test_a_name_a_module_removed_raises_from_its_deprecation_table():
    [removed] = extract_raise_sites(DEPRECATING_MODULE, "jax/__init__.py")
    assert (removed.lineno, removed.end_lineno) == (6, 10)
    assert (removed.kind, removed.exc_class, removed.qualname) == ("raise", "AttributeError", "__getattr__('tree_map')")
    assert removed.template.text == ("jax.tree_map was removed in JAX v0.6.0: use jax.tree.map (jax v0.4.25 or newer)"
                                     " or jax.tree_util.tree_map (any JAX version).")
    assert (removed.guard.kind, removed.guard.condition) == ("access", "jax.tree_map")
    # `device_put_replicated` still works (a function beside its words): it only warns, and is no site.


@pytest.mark.parametrize("change", [
    ("__getattr__ = _deprecation_getattr(__name__, _deprecations)", "__getattr__ = None"),  # no module __getattr__
    ("_deprecations = {", "_removed_names = {"),  # another table, not read by deprecation_getattr
])
def test_only_the_table_deprecation_getattr_reads_is_read(change):
    source = DEPRECATING_MODULE.replace(*change)
    assert extract_raise_sites(source, "jax/__init__.py") == []


def test_a_table_inside_a_function_is_not_the_module_s():
    source = "def f():\n" + textwrap.indent(DEPRECATING_MODULE, "    ")
    assert extract_raise_sites(source, "jax/__init__.py") == []


def test_a_table_annotated_or_passed_by_keyword_is_read_and_entries_of_other_shapes_are_not():
    source = textwrap.dedent('''
        _deprecations: dict[str, tuple] = {
            "tree_map": ("jax.tree_map was removed.", None),
            **_older_deprecations,
            3: ("a key that is no name", None),
            "tree_leaves": ("jax.tree_leaves was removed.", None, "a third item"),
            "tree_flatten": ["jax.tree_flatten was removed.", None],
        }
        __getattr__ = _deprecation_getattr(module=__name__, deprecations=_deprecations)
    ''')
    assert [(s.qualname, s.template.text) for s in extract_raise_sites(source, "jax/__init__.py")] == [
        ("__getattr__('tree_map')", "jax.tree_map was removed.")]
