"""Rebuild an exception's message template from the expression that builds it.

Literal text is kept verbatim; interpolated values keep their expression text
(`{x_aval.str_short(True)}`, as the seed card shows); pieces whose text cannot be known
statically are opaque. What a name, a list or a helper call stands for is asked of a `Resolver`
(see `crawler.messages`), which knows the function and module around the expression.
"""

from __future__ import annotations

import ast
import re
import string
from collections.abc import Callable

from jax_errors.template import EMPTY, OPENERS, Part, PartKind, Template, alternatives, literal, optional, repeated

# Resolve a bare name used as (part of) a message to the expression last assigned to it.
NameResolver = Callable[[ast.Name], "Template | None"]
# How a list element was added: always, only on some paths, or any number of times (in a loop).
Element = tuple[Template, str]
ALWAYS, SOMETIMES, REPEATED = "always", "sometimes", "repeated"

_PERCENT_DIRECTIVE = re.compile(
    r"%(?:\((?P<key>[^)]*)\))?[-#0 +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?(?P<conv>[diouxXeEfFgGcrsa%])"
)
_STRING_WRAPPERS = {"dedent", "cleandoc", "strip", "rstrip", "lstrip", "fill"}
# Builtins whose result is a value, never a message's words: `raise TypeError(type(x))`.
_VALUE_BUILTINS = frozenset({"type", "len", "int", "float", "bool", "tuple", "list", "set", "sorted", "id", "hex",
                             "min", "max", "abs", "getattr", "hash", "ord", "chr"})
_CONVERSIONS = _VALUE_BUILTINS | {"str", "repr", "format"}
# A name (or attribute) like these holds words made elsewhere: a message passed in, a caught exception,
# a reason. Left unresolved, it is an opaque piece; any other unresolved name is a value shown as it is.
_MESSAGE_NAME = re.compile(
    r"(?:^|_)(?:msgs?|messages?|errs?|errors?|exc|exceptions?|e|ex|reasons?|text|txt|warnings?|details?|"
    r"explanations?|hints?|desc|description|traceback|tb|why|problems?|s|str|string|summary|notes?|"
    r"suffix|prefix|header|footer|extra)$",
    re.IGNORECASE,
)
CLOSERS = frozenset(OPENERS.values())


def placeholder(node: ast.AST, kind: PartKind = "expr") -> Template:
    return Template((Part(kind, ast.unparse(node)),))


class Resolver:
    """What a builder asks about the code around an expression; this one knows nothing."""

    def resolve_name(self, node: ast.Name) -> Template | None:
        """The template of what a bare name holds, if it holds a message."""
        return None

    def resolve_list(self, node: ast.Name) -> list[Element] | None:
        """The elements a list of message pieces was given, each with how it was added."""
        return None

    def resolve_call(self, node: ast.Call) -> Template | None:
        """The template of the string a call to a helper function returns."""
        return None

    def is_helper(self, node: ast.Call) -> bool:
        """Whether the call is of a function of the module, one not inlined (a cycle, or too deep)."""
        return False

    def holds_words(self, name: str) -> bool:
        """Whether an unresolved name holds words made elsewhere: a caught exception, a module's message."""
        return False

    def shadows(self, name: str) -> bool:
        """Whether a parameter or local binding hides the builtin `name`."""
        return False


class _NameOnly(Resolver):
    def __init__(self, resolve_name: NameResolver) -> None:
        self.resolve_name = resolve_name  # type: ignore[method-assign]


def build_template(node: ast.expr, *, resolve_name: NameResolver | None = None,
                   resolver: Resolver | None = None) -> Template:
    """Rebuild the template of the string that `node` evaluates to.

    Parameters:
        node: the message expression (usually the exception's first argument).
        resolve_name: looks up what a bare name was assigned earlier in the same function.
        resolver: answers for names, lists and helper calls (instead of `resolve_name`).
    Returns:
        The template; `Template.complete` tells whether any piece stayed opaque.
    """
    return _Builder(resolver or _NameOnly(resolve_name or (lambda _name: None)), node).build(node)


def join_elements(separator: str, elements: list[Element]) -> Template:
    """`separator.join(pieces)`: each piece after the first led by the separator, optional or repeated as added."""
    result = EMPTY
    for index, (template, how) in enumerate(elements):
        piece = template if index == 0 else literal(separator) + template
        result = result + (piece if how == ALWAYS else optional(piece) if how == SOMETIMES else repeated(piece))
    return result


def without_tail(template: Template, count: int) -> Template:
    """`text[:-count]`: the last `count` characters of every literal that may end the message become optional.

    A literal may end the message when nothing but optional or repeated parts follows it
    (`"...;\n"` appended in a loop, then `"".join(msg)[:-2]`); the regex then accepts the message
    with or without those characters.
    """
    parts = list(template.parts)
    result = EMPTY
    for index, part in enumerate(parts):
        if part.kind == "lit" and _may_end(parts[index + 1:]) and len(part.text) >= count > 0:
            result = result + literal(part.text[:-count]) + optional(literal(part.text[-count:]))
        else:
            result = result + Template((part,))
    return Template(result.parts, template.forms | {"sliced"})


class _Builder:
    def __init__(self, resolver: Resolver, root: ast.expr) -> None:
        self.resolver = resolver
        self.root = root
        self.resolve_name = resolver.resolve_name

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
            else:  # an interpolated value: shown as its expression, whatever it holds
                result = result + Template((Part("expr", _formatted_value_text(value)),))
        return result

    def build_name(self, node: ast.Name) -> Template:
        resolved = self.resolve_name(node)
        if resolved is not None:
            return resolved.with_form("variable")
        return self._value(node)

    def build_attribute(self, node: ast.Attribute) -> Template:
        return self._value(node)

    def _value(self, node: ast.expr) -> Template:
        """An expression whose text is not resolved: a value shown as it is, or words made elsewhere (opaque)."""
        if self._holds_words(node):
            return placeholder(node, "opaque")
        return placeholder(node).with_form("value")

    def _holds_words(self, node: ast.expr) -> bool:
        """Whether the expression carries words made elsewhere: it names a message (`msg`, `err.message`,
        `x._origin_msg()`), a caught exception, or a module name given text."""
        for inner in ast.walk(node):
            if isinstance(inner, ast.Name) and inner.id not in _CONVERSIONS \
                    and (_MESSAGE_NAME.search(inner.id) or self.resolver.holds_words(inner.id)):
                return True
            if isinstance(inner, ast.Attribute) and _MESSAGE_NAME.search(inner.attr):
                return True
        return False

    def build_tuple(self, node: ast.expr) -> Template:
        return self._value(node)  # `raise TypeError((a, b))`: a value, not words

    build_list = build_compare = build_dict = build_set = build_tuple
    build_listcomp = build_setcomp = build_dictcomp = build_generatorexp = build_tuple

    def build_unaryop(self, node: ast.UnaryOp) -> Template:
        return self._value(node)

    def build_boolop(self, node: ast.BoolOp) -> Template:
        if any(self._is_stringy(value) for value in node.values):  # `msg or "default"`: one of them
            return alternatives([self.build(value) for value in node.values])
        return self._value(node)

    def build_ifexp(self, node: ast.IfExp) -> Template:
        return alternatives([self.build(node.body), self.build(node.orelse)])

    def build_binop(self, node: ast.BinOp) -> Template:
        if isinstance(node.op, ast.Add):
            return (self.build(node.left) + self.build(node.right)).with_form("concat")
        if isinstance(node.op, ast.Mult):
            repeated_text = _repeated_literal(node)
            if repeated_text is not None:
                return literal(repeated_text).with_form("literal")
        if isinstance(node.op, ast.Mod) and self._is_stringy(node.left):
            return self._percent(self.build(node.left), node.right).with_form("percent")
        if not (self._is_stringy(node.left) or self._is_stringy(node.right)):
            return self._value(node)  # `32 // bitwidth`: a number
        return placeholder(node, "opaque")

    def build_call(self, node: ast.Call) -> Template:
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "format" and self._is_stringy(func.value):
            return self._format(self.build(func.value), node).with_form("format")
        if isinstance(func, ast.Name) and func.id in {"str", "repr"} and len(node.args) == 1:
            arg = node.args[0]
            if func.id == "str" and self._is_stringy(arg):
                return self.build(arg)
            return self._value(node)  # `str(x.shape)`, but `str(exc)` carries another error's words
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
        if name in _STRING_WRAPPERS and node.args and self._is_stringy(node.args[0]):
            return self.build(node.args[0])  # textwrap.dedent("...") and friends keep the words
        if isinstance(func, ast.Attribute) and func.attr in _STRING_WRAPPERS and self._is_stringy(func.value):
            return self.build(func.value)  # "...".strip()
        if isinstance(func, ast.Attribute) and func.attr == "join" and self._separator(func.value) is not None:
            return self._join(node)
        if isinstance(func, ast.Name) and func.id in _VALUE_BUILTINS and not self.resolver.shadows(func.id):
            return placeholder(node).with_form("value")  # `type(err)` is a value whatever it is given
        helper = self.resolver.resolve_call(node)
        if helper is not None:
            return helper.with_form("helper")
        if node is self.root or self.resolver.is_helper(node):
            return placeholder(node, "opaque")  # `raise E(make_message(x))`: the whole message, made elsewhere
        return self._value(node)  # `"..." + summarize(frame)`: a value, unless it names words

    def _separator(self, node: ast.expr) -> str | None:
        """The text of a join's separator: a string literal, or a name bound to one (`sep = "\\n"`)."""
        if isinstance(node, ast.Constant):
            return node.value if isinstance(node.value, str) else None
        resolved = self.resolve_name(node) if isinstance(node, ast.Name) else None
        if resolved is not None and all(p.kind == "lit" for p in resolved.parts):
            return "".join(p.text for p in resolved.parts)
        return None

    def _join(self, node: ast.Call) -> Template:
        """`"".join(msg)` of a list of message pieces, or of a list written out; of anything else, a value."""
        separator = self._separator(node.func.value)  # type: ignore[attr-defined]
        arg = node.args[0] if len(node.args) == 1 else None
        if isinstance(arg, (ast.List, ast.Tuple)) and any(self._is_stringy(e) for e in arg.elts):
            elements: list[Element] | None = [(self.build(e), ALWAYS) for e in arg.elts]
        else:
            elements = self.resolver.resolve_list(arg) if isinstance(arg, ast.Name) else None
        if elements is None or separator is None:
            return self._value(node)  # ", ".join(names)
        return join_elements(separator, elements).with_form("list")

    def build_subscript(self, node: ast.Subscript) -> Template:
        cut = _negative_stop(node.slice)
        if cut is not None and self._is_stringy(node.value):
            return without_tail(self.build(node.value), cut)
        return self._value(node)  # `shape[0]` is a value, `msgs[0][2:]` words

    def _is_stringy(self, node: ast.expr) -> bool:
        if isinstance(node, ast.Constant):
            return isinstance(node.value, str)
        if isinstance(node, ast.JoinedStr):
            return True
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
            return self._is_stringy(node.left) or self._is_stringy(node.right)
        if isinstance(node, ast.Name):
            resolved = self.resolve_name(node)
            return resolved is not None and _has_plain_literal(resolved)
        if isinstance(node, ast.Subscript):
            return _negative_stop(node.slice) is not None and self._is_stringy(node.value)
        if isinstance(node, ast.IfExp):
            return self._is_stringy(node.body) or self._is_stringy(node.orelse)
        if isinstance(node, ast.Call) and isinstance(node.func, (ast.Attribute, ast.Name)):
            name = node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id
            if name == "join" and isinstance(node.func, ast.Attribute) and len(node.args) == 1:
                arg = node.args[0]
                if isinstance(arg, (ast.List, ast.Tuple)):
                    return any(self._is_stringy(e) for e in arg.elts)
                return isinstance(arg, ast.Name) and self.resolver.resolve_list(arg) is not None
            if isinstance(node.func, ast.Name) and name not in _STRING_WRAPPERS:
                helper = self.resolver.resolve_call(node)
                return helper is not None and _has_plain_literal(helper)
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


def _negative_stop(node: ast.expr) -> int | None:
    """`k` for a slice `[:-k]` (no start, no step), else None."""
    if not isinstance(node, ast.Slice) or node.lower is not None or node.step is not None:
        return None
    upper = node.upper
    if isinstance(upper, ast.UnaryOp) and isinstance(upper.op, ast.USub) and isinstance(upper.operand, ast.Constant) \
            and type(upper.operand.value) is int:
        return upper.operand.value
    return None


def _may_end(following: list[Part]) -> bool:
    """Whether nothing that every message holds comes after: only parts inside groups opened later."""
    level = floor = 0  # floor: the outermost level reached, where parts are not inside a later group
    for part in following:
        if part.kind in OPENERS:
            level += 1
        elif part.kind in CLOSERS:
            level -= 1
            floor = min(floor, level)
        elif level <= floor:
            return False
    return True


MAX_REPEATED_LITERAL = 200


def _repeated_literal(node: ast.BinOp) -> str | None:
    """`'-' * 30`: the text, when a string constant is repeated a constant (and modest) number of times."""
    pair = (node.left, node.right)
    text = next((n.value for n in pair if isinstance(n, ast.Constant) and isinstance(n.value, str)), None)
    times = next((n.value for n in pair if isinstance(n, ast.Constant) and type(n.value) is int), None)
    if text is None or times is None or not 0 <= len(text) * times <= MAX_REPEATED_LITERAL:
        return None
    return text * times


def _has_plain_literal(template: Template) -> bool:
    """Whether some literal text is in every message (not only in an optional or repeated part).

    A name that holds one of several strings (`mode = "high" if x else "low"`, possibly reassigned
    on one path only) is shown as a placeholder, as its value.
    """
    depth = 0
    for part in template.parts:
        if part.kind in OPENERS:
            depth += 1
        elif part.kind in CLOSERS:
            depth -= 1
        elif part.kind == "lit" and depth == 0:
            return True
    return False
