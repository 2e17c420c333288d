"""Rebuild an exception's message template from the expression that builds it.

Literal text is kept verbatim; interpolated values keep their expression text
(`{x_aval.str_short(True)}`, as the seed card shows); pieces whose text cannot be known
statically (an unresolved variable holding the whole message, a helper call) are opaque.
"""

from __future__ import annotations

import ast
import re
import string
from collections.abc import Callable

from jax_errors.template import EMPTY, Part, PartKind, Template, literal

# Resolve a bare name used as (part of) a message to the expression last assigned to it.
NameResolver = Callable[[ast.Name], "Template | None"]

_PERCENT_DIRECTIVE = re.compile(
    r"%(?:\((?P<key>[^)]*)\))?[-#0 +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?(?P<conv>[diouxXeEfFgGcrsa%])"
)
_STRING_WRAPPERS = {"dedent", "cleandoc", "strip", "rstrip", "lstrip"}


def placeholder(node: ast.AST, kind: PartKind = "expr") -> Template:
    return Template((Part(kind, ast.unparse(node)),))


def build_template(node: ast.expr, *, resolve_name: NameResolver | None = None) -> Template:
    """Rebuild the template of the string that `node` evaluates to.

    Parameters:
        node: the message expression (usually the exception's first argument).
        resolve_name: looks up what a bare name was assigned earlier in the same function.
    Returns:
        The template; `Template.complete` tells whether any piece stayed opaque.
    """
    return _Builder(resolve_name or (lambda _name: None)).build(node)


class _Builder:
    def __init__(self, resolve_name: NameResolver) -> None:
        self.resolve_name = resolve_name

    def build(self, node: ast.expr) -> Template:
        method = getattr(self, f"build_{type(node).__name__.lower()}", None)
        return method(node) if method else placeholder(node, "opaque")

    def build_constant(self, node: ast.Constant) -> Template:
        if isinstance(node.value, str):
            return literal(node.value).with_form("literal")
        return placeholder(node)

    def build_joinedstr(self, node: ast.JoinedStr) -> Template:
        result = EMPTY.with_form("fstring")
        for value in node.values:
            if isinstance(value, ast.Constant):
                result = result + literal(str(value.value))
            else:
                result = result + Template((Part("expr", _formatted_value_text(value)),))
        return result

    def build_name(self, node: ast.Name) -> Template:
        resolved = self.resolve_name(node)
        return resolved.with_form("variable") if resolved is not None else placeholder(node, "opaque")

    def build_binop(self, node: ast.BinOp) -> Template:
        if isinstance(node.op, ast.Add):
            return (self.build(node.left) + self.build(node.right)).with_form("concat")
        if isinstance(node.op, ast.Mod) and self._is_stringy(node.left):
            return self._percent(self.build(node.left), node.right).with_form("percent")
        return placeholder(node, "opaque")

    def build_call(self, node: ast.Call) -> Template:
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "format" and self._is_stringy(func.value):
            return self._format(self.build(func.value), node).with_form("format")
        if isinstance(func, ast.Name) and func.id in {"str", "repr"} and len(node.args) == 1:
            arg = node.args[0]
            if func.id == "str" and self._is_stringy(arg):
                return self.build(arg)
            return placeholder(node)
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
        if name in _STRING_WRAPPERS and node.args and self._is_stringy(node.args[0]):
            return self.build(node.args[0])  # textwrap.dedent("...") and friends keep the words
        if isinstance(func, ast.Attribute) and func.attr in _STRING_WRAPPERS and self._is_stringy(func.value):
            return self.build(func.value)  # "...".strip()
        if isinstance(func, ast.Attribute) and func.attr == "join" and isinstance(func.value, ast.Constant):
            return placeholder(node)  # ", ".join(names): an interpolated list of values
        return placeholder(node, "opaque")

    def _is_stringy(self, node: ast.expr) -> bool:
        if isinstance(node, ast.Constant):
            return isinstance(node.value, str)
        if isinstance(node, ast.JoinedStr):
            return True
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
            return self._is_stringy(node.left) or self._is_stringy(node.right)
        if isinstance(node, ast.Name):
            resolved = self.resolve_name(node)
            return resolved is not None and any(p.kind == "lit" for p in resolved.parts)
        if isinstance(node, ast.Call) and isinstance(node.func, (ast.Attribute, ast.Name)):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id
            return name in _STRING_WRAPPERS | {"format"} and (
                bool(node.args) and self._is_stringy(node.args[0])
                or isinstance(node.func, ast.Attribute) and self._is_stringy(node.func.value)
            )
        return False

    def _percent(self, base: Template, right: ast.expr) -> Template:
        positional = list(right.elts) if isinstance(right, ast.Tuple) else [right]
        named = _dict_items(right)
        result = EMPTY
        for part in base.parts:
            if part.kind != "lit":
                result = result + Template((part,))
                continue
            pos = 0
            for piece, directive in _split_percent(part.text):
                result = result + literal(piece)
                if directive is None:
                    continue
                if directive == "%":
                    result = result + literal("%")
                elif directive.startswith("("):
                    key = directive[1:-1]
                    value = named.get(key)
                    result = result + (placeholder(value) if value is not None else _named(key))
                else:
                    value = positional[pos] if pos < len(positional) else None
                    pos += 1
                    if value is not None and directive == "s" and self._is_stringy(value):
                        result = result + self.build(value)
                    else:
                        result = result + (placeholder(value) if value is not None else _named("?"))
        return result

    def _format(self, base: Template, call: ast.Call) -> Template:
        keywords = {kw.arg: kw.value for kw in call.keywords if kw.arg}
        result = EMPTY
        auto_index = 0
        for part in base.parts:
            if part.kind != "lit":
                result = result + Template((part,))
                continue
            try:
                fields = list(string.Formatter().parse(part.text))
            except ValueError:  # not a valid format string: str.format would raise, keep it verbatim
                result = result + literal(part.text)
                continue
            for text, field, spec, conversion in fields:
                result = result + literal(text)
                if field is None:
                    continue
                head, rest = _split_field(field)
                if head == "":
                    head, auto_index = str(auto_index), auto_index + 1
                if head.isdigit():
                    index = int(head)
                    value = call.args[index] if index < len(call.args) else None
                else:
                    value = keywords.get(head)
                if value is not None and not rest and not spec and conversion in (None, "s") \
                        and self._is_stringy(value):
                    result = result + self.build(value)  # a string argument keeps its words
                    continue
                expr = (ast.unparse(value) if value is not None else head) + rest
                result = result + Template((Part("expr", _with_spec(expr, conversion, spec)),))
        return result


def _formatted_value_text(node: ast.FormattedValue) -> str:
    spec = None
    if isinstance(node.format_spec, ast.JoinedStr):
        spec = "".join(
            str(v.value) if isinstance(v, ast.Constant) else "{" + ast.unparse(v.value) + "}"
            for v in node.format_spec.values
        )
    conversion = chr(node.conversion) if node.conversion != -1 else None
    return _with_spec(ast.unparse(node.value), conversion, spec)


def _with_spec(expr: str, conversion: str | None, spec: str | None) -> str:
    return expr + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "")


def _split_field(field: str) -> tuple[str, str]:
    match = re.match(r"[^.\[]*", field)
    head = match.group(0) if match else field
    return head, field[len(head):]


def _split_percent(text: str) -> list[tuple[str, str | None]]:
    pieces: list[tuple[str, str | None]] = []
    last = 0
    for match in _PERCENT_DIRECTIVE.finditer(text):
        conv = match.group("conv")
        key = match.group("key")
        directive = "%" if conv == "%" else (f"({key})" if key is not None else conv)
        pieces.append((text[last:match.start()], directive))
        last = match.end()
    pieces.append((text[last:], None))
    return pieces


def _dict_items(node: ast.expr) -> dict[str, ast.expr]:
    if isinstance(node, ast.Dict):
        return {
            k.value: v for k, v in zip(node.keys, node.values)
            if isinstance(k, ast.Constant) and isinstance(k.value, str)
        }
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "dict":
        return {kw.arg: kw.value for kw in node.keywords if kw.arg}
    return {}


def _named(key: str) -> Template:
    return Template((Part("expr", key),))
