"""What an exception class's constructor makes of its message: words it builds, or words it puts around one passed in.

JAX's error classes build or wrap their messages in `__init__`. `TracerBoolConversionError(tracer)`
builds `Attempted boolean conversion of ...`; every class mixing in `_JAXErrorMixin` adds a line
that points to its documentation, `f'{message}\\nSee {error_page}#{module_name}.{class_name}'`, of
class attributes and the raised class's own name. So `raise UnexpectedTracerError("...")` shows its
words, then that line.

A class's bases are followed within its module: JAX defines its error classes and their mixin
together (`jax/_src/errors.py`), and Python defines a module's base classes before the classes
built on them, so one pass over the module in source order sees each base first.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from jax_errors.template import EMPTY, WRAPPED, Part, Template, wrapped_in

# How a constructor's message reads its own class: an attribute through one of these, or the class's name (which may be
# a subclass's) as `<one of these>.__name__`.
_OWN = ("self", "type(self)", "self.__class__")
_OWN_NAME = frozenset({"self.__class__.__name__", "type(self).__name__"})
_ATTRIBUTE = re.compile(r"(.+)\.(\w+)")  # `owner.attribute`


@dataclass(frozen=True)
class ClassWords:
    """The message one exception class's constructor makes: its own words, or the words around a message passed in."""

    words: Template | None = None
    wraps: Template | None = None  # holding WRAPPED where the message passed in goes
    attributes: Mapping[str, str] = field(default_factory=dict)  # its string class attributes, its bases' included
    names: frozenset[str] = frozenset()  # its own name and its module's bases', which its methods may read by

    @property
    def makes_any(self) -> bool:
        return self.words is not None or self.wraps is not None

    def named(self, name: str) -> Template | None:
        """The message as class `name` raises it: its attributes and own name written in. None when it makes no
        words of its own and adds none around a message (`super().__init__(msg)` alone)."""
        template = self.words if self.words is not None else self.wraps
        if template is None or template.parts == (Part("expr", WRAPPED),):
            return None
        parts = []
        for part in template.parts:
            attribute = _ATTRIBUTE.fullmatch(part.text) if part.kind == "expr" else None
            if part.kind == "expr" and part.text in _OWN_NAME:
                part = Part("lit", name)
            elif attribute is not None and (attribute.group(1) in _OWN or attribute.group(1) in self.names) \
                    and attribute.group(2) in self.attributes:
                part = Part("lit", self.attributes[attribute.group(2)])
            parts.append(part)
        return EMPTY + Template(tuple(parts), template.forms)


@dataclass(frozen=True)
class InitMessage:
    """The message a class's `__init__` hands to a base's: `super().__init__(message)` or `Base.__init__(self, ...)`."""

    template: Template
    parameter: str | None  # the `__init__`'s first parameter after `self`
    base: str | None  # the base named, or None for `super()`
    statement: ast.stmt
    function: ast.FunctionDef | ast.AsyncFunctionDef  # the `__init__`


def class_words(node: ast.ClassDef, bases: list[ClassWords | None], init: InitMessage | None,
                named_base: ClassWords | None = None) -> ClassWords:
    """What class `node` makes of its message, from its bases (in the class's order: None for a base of another
    module, whose constructor is not read) and its own `__init__`.

    The `__init__`'s first parameter, where the message it hands on holds it once as a value, is the message
    passed in (`super().__init__(msg)`, `f"{message}\\nSee ..."`, `"Prefix: " + msg`): the class wraps it. Words
    are wrapped in turn by the base whose `__init__` is called: the one named (`Base.__init__(self, ...)`), or
    under `super()` the first base in order that makes a message, none when that is a base of another module
    (`class E(TypeError, Mixin)` runs `TypeError.__init__`). A class without an `__init__` makes what that base
    makes.
    """
    known = [base for base in bases if base is not None]
    attributes: dict[str, str] = {}
    for base in reversed(known):
        attributes.update(base.attributes)
    attributes.update(string_attributes(node))
    names = frozenset({node.name}).union(*(base.names for base in known))
    first = next((base for base in bases if base is None or base.makes_any), None)
    if init is None:
        return ClassWords(first.words, first.wraps, attributes, names) if first is not None else \
            ClassWords(attributes=attributes, names=names)
    parent = named_base if init.base is not None else first
    around = parent.wraps if parent is not None else None
    template = init.template
    passed = [i for i, p in enumerate(template.parts) if p.kind in ("expr", "opaque") and p.text == init.parameter]
    if len(passed) == 1:
        own = Template(template.parts[:passed[0]] + (Part("expr", WRAPPED),) + template.parts[passed[0] + 1:],
                       template.forms)
        return ClassWords(None, wrapped_in(around, own) if around else own, attributes, names)
    return ClassWords(wrapped_in(around, template) if around else template, None, attributes, names)


def string_attributes(node: ast.ClassDef) -> dict[str, str]:
    """The class attributes its body sets to a string: `_error_page = 'https://...'`."""
    found = {}
    for stmt in node.body:
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target] if isinstance(stmt, ast.AnnAssign) \
            else []
        value = getattr(stmt, "value", None)
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            found.update((t.id, value.value) for t in targets if isinstance(t, ast.Name))
    return found
