"""Rebuild a message built away from its `raise`: in variables, in lists, and in helper functions of the module.

A `MessageResolver` answers the template builder's questions about one function: what a name was
assigned (`msg = ...`, `msg += ...`), what a list of pieces was given (`msg.append(...)` then
`"".join(msg)`), and what a call to a helper function of the same module returns, with the
helper's parameters replaced by the call's arguments. Pieces added on some paths only become
optional parts, pieces added in a loop repeated ones.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from functools import cached_property

from jax_errors.crawler.assignments import FunctionBody
from jax_errors.crawler.template_builder import ALWAYS, REPEATED, SOMETIMES, Element, Resolver, build_template
from jax_errors.template import EMPTY, Part, Template, alternatives, literal, merge_into, optional, repeated

MAX_RESOLVE_DEPTH = 8
# A template past this many characters or parts is not a message but a blow-up: it stays opaque.
MAX_TEMPLATE_CHARS = 20_000
MAX_TEMPLATE_PARTS = 500
# Helpers calling helpers: how many may be inlined into one another.
MAX_HELPER_DEPTH = 3
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


class ModuleFunctions:
    """The module-level functions of one module, and what each returns."""

    def __init__(self, tree: ast.Module, source: str | None = None) -> None:
        self.tree = tree
        self.source = source  # the module's text, when known: a quick look before walking the tree
        self.defs = {node.name: node for node in tree.body if isinstance(node, _FUNCTIONS)}
        self._bodies: dict[int, FunctionBody] = {}
        self._returned: dict[int, Template | None] = {}
        self._inlining: list[ast.AST] = []  # helpers being rebuilt, innermost last: breaks cycles
        self._constants: dict[str, Template | None] = {}
        self._factories: dict[int, tuple[ast.expr, Template] | None] = {}

    def body_of(self, node: ast.AST) -> FunctionBody:
        if id(node) not in self._bodies:
            self._bodies[id(node)] = FunctionBody(node)
        return self._bodies[id(node)]

    def returns(self, name: str) -> tuple[list[ast.Return], FunctionBody]:
        """The function's own `return <value>` statements, in source order, with its body."""
        if name not in self.defs:
            return [], FunctionBody(ast.Module(body=[], type_ignores=[]))
        return self._returns_of(self.defs[name])

    def _returns_of(self, function: ast.AST) -> tuple[list[ast.Return], FunctionBody]:
        body = self.body_of(function)
        found = [s for s in body.statements if isinstance(s, ast.Return) and s.value is not None]
        return sorted(found, key=lambda s: (s.lineno, s.col_offset)), body

    def returned_message(self, name: str) -> Template | None:
        """The template of the string a module-level helper returns (see `returned_by`)."""
        return self.returned_by(self.defs[name]) if name in self.defs else None

    def returned_by(self, function: ast.AST) -> Template | None:
        """The template of the string a helper returns, its parameters as placeholders; None if it returns none.

        A helper with several returns gives each of their templates as an optional alternative;
        cycles between helpers, and chains longer than MAX_HELPER_DEPTH, stop with None.
        """
        if id(function) in self._returned:
            return self._returned[id(function)]
        if function in self._inlining or len(self._inlining) >= MAX_HELPER_DEPTH:
            return None
        returns, body = self._returns_of(function)
        if not returns:
            return None
        self._inlining.append(function)
        try:
            templates = [MessageResolver(body, self, before=r.lineno, anchor=r).template(r.value) for r in returns]
        finally:
            self._inlining.pop()
        template = templates[0] if len(templates) == 1 else alternatives(templates)
        result = template if template.has_words else None
        if not self._inlining:  # a template made inside a cycle depends on where the cycle was entered
            self._returned[id(function)] = result
        return result

    @property
    def top_level(self) -> FunctionBody:
        """The module's own statements, outside its functions and classes."""
        return self.body_of(self.tree)

    def binds_words(self, name: str) -> bool:
        """Whether the module's top level assigns `name` text (on any path): a message, if not one known."""
        return any(not isinstance(stmt, ast.AugAssign) and _has_text(stmt.value)
                   for stmt in self.top_level.assignments(name))

    def constant(self, name: str) -> Template | None:
        """The text a module-level name holds (`_HINT = "..."`), if it is bound once, to words."""
        if name not in self._constants:
            self._constants[name] = None  # a constant defined through itself stays unknown
            chain = self.top_level.assignments(name)
            value = chain[0].value if len(chain) == 1 and not isinstance(chain[0], ast.AugAssign) else None
            template = MessageResolver(self.top_level, self, before=chain[0].lineno).template(value) \
                if value is not None else None
            self._constants[name] = template if template is not None and template.spelled_out else None
        return self._constants[name]

    def _may_call(self, name: str) -> bool:
        """Whether the module's text calls `name` anywhere but in its `def` (always True without the text)."""
        if self.source is None:
            return True
        return re.search(rf"(?<!def )(?<![\w.]){re.escape(name)}\s*\(", self.source) is not None

    @cached_property
    def _calls(self) -> dict[str, list[tuple[FunctionBody, ast.stmt, ast.Call]]]:
        """Calls of the module's functions, by name, with the body and statement each stands in."""
        found: dict[str, list[tuple[FunctionBody, ast.stmt, ast.Call]]] = {}
        owners = [self.tree, *(n for n in ast.walk(self.tree) if isinstance(n, _FUNCTIONS))]
        for owner in owners:
            body = self.body_of(owner)
            for stmt in body.statements:
                for call in _calls_in(stmt):
                    if isinstance(call.func, ast.Name) and call.func.id in self.defs:
                        found.setdefault(call.func.id, []).append((body, stmt, call))
        for calls in found.values():
            calls.sort(key=lambda found_call: (found_call[2].lineno, found_call[2].col_offset))
        return found

    def passed_in(self, name: str, parameter: str) -> list[Template]:
        """What the module's calls of function `name` pass as `parameter`, each as its caller builds it (with words)."""
        if not self._may_call(name):
            return []  # called from other modules only: no need to index the module's calls
        params = self.defs[name].args
        positional = [a.arg for a in (*params.posonlyargs, *params.args)]
        index = positional.index(parameter) if parameter in positional else None
        variants: list[Template] = []
        for body, stmt, call in self._calls.get(name, []):
            keyword = next((k.value for k in call.keywords if k.arg == parameter), None)
            args = call.args
            value = keyword if keyword is not None else (
                args[index] if index is not None and index < len(args)
                and not any(isinstance(a, ast.Starred) for a in args[:index + 1]) else None)
            if value is None:
                continue
            template = MessageResolver(body, self, before=stmt.lineno, anchor=stmt).template(value)
            if template.has_words and template.parts not in [v.parts for v in variants]:
                variants.append(template)
        return variants

    def factories_made_by(self, function: ast.AST) -> tuple[ast.expr, Template] | None:
        """For a function that yields or returns makers of exceptions (`yield lambda name: ValueError(msg)`), or
        returns what such a function of the module yields (`return list(_prefix_error(...))`): the class the
        first one makes, and their messages as alternatives; None for any other function.

        Their callers raise one of them later (`e, *_ = prefix_errors(specs, args); raise e('in_specs')`),
        so the messages are the ones these raises show; a maker's parameter (`name`) stays a placeholder.
        """
        if id(function) in self._factories:
            return self._factories[id(function)]
        if function in self._inlining or len(self._inlining) >= MAX_HELPER_DEPTH:
            return None
        body = self.body_of(function)
        made: list[tuple[ast.expr, Template]] = []
        self._inlining.append(function)
        try:
            for stmt in sorted(body.statements, key=lambda stmt: (stmt.lineno, stmt.col_offset)):  # source order
                value = stmt.value if isinstance(stmt, (ast.Expr, ast.Return)) else None
                value = value.value if isinstance(value, ast.Yield) else value
                if isinstance(value, ast.Lambda) and isinstance(value.body, ast.Call) and value.body.args:
                    resolver = MessageResolver(body, self, before=stmt.lineno, anchor=stmt)
                    made.append((value.body.func, resolver.template(value.body.args[0])))
                elif isinstance(stmt, ast.Return) and (inner := _generator_called(value, self.defs)) is not None:
                    found = self.factories_made_by(inner)
                    if found is not None:
                        made.append(found)
        finally:
            self._inlining.pop()
        templates = [t for _, t in made if t.has_words]
        result = (made[0][0], templates[0] if len(templates) == 1 else alternatives(templates)) if templates else None
        if not self._inlining:  # as for `returned_by`: one made inside a cycle depends on where it was entered
            self._factories[id(function)] = result
        return result

    def raised_by(self, name: str) -> tuple[ast.expr, ast.expr | None, MessageResolver] | None:
        """For a factory of the module that returns an exception (`return E(msg)`): see `raised_by_def`."""
        return self.raised_by_def(self.defs[name]) if name in self.defs else None

    def raised_by_def(self, function: ast.AST) -> tuple[ast.expr, ast.expr | None, MessageResolver] | None:
        """For a factory that returns an exception (`return E(msg)`, or `err = E(msg)`, then what it does to `err`
        (a traceback or a cause attached), then `return err`): E, its message, and a resolver inside it."""
        returns, body = self._returns_of(function)
        if len(returns) != 1 or function in self._inlining:
            return None
        made = returns[0]
        call = made.value
        if isinstance(call, ast.Name) and (bound := _bound_once(function, call.id)) is not None \
                and bound.lineno < made.lineno:
            made, call = bound, bound.value
        if not isinstance(call, ast.Call) or not isinstance(call.func, (ast.Name, ast.Attribute)):
            return None
        message = call.args[0] if call.args else None
        return call.func, message, MessageResolver(body, self, before=made.lineno, anchor=made)


class MessageResolver(Resolver):
    """Answers for one function: its names, its lists of pieces, and the module's helpers."""

    def __init__(self, body: FunctionBody, module: ModuleFunctions, *, before: int,
                 anchor: ast.stmt | None = None, depth: int = 0) -> None:
        self.body = body
        self.module = module
        self.before = before
        self.anchor = anchor
        self.depth = depth

    def template(self, node: ast.expr) -> Template:
        return build_template(node, resolver=self)

    def _at(self, stmt: ast.stmt) -> MessageResolver:
        """A resolver for a value bound by `stmt` (its own names resolved as of that line)."""
        return MessageResolver(self.body, self.module, before=stmt.lineno, depth=self.depth + 1)

    def _how(self, stmt: ast.stmt) -> str:
        if self.body.runs_with(stmt, self.anchor):
            return ALWAYS
        return REPEATED if self.body.repeats(stmt, self.anchor) else SOMETIMES

    def resolve_name(self, node: ast.Name) -> Template | None:
        key = ("name", node.id, self.before, id(self.anchor), self.depth)
        if key not in self.body.memo:
            self.body.memo[key] = self._resolve_name(node)
        return self.body.memo[key]  # type: ignore[return-value]

    def _resolve_name(self, node: ast.Name) -> Template | None:
        if self.depth >= MAX_RESOLVE_DEPTH:
            return None
        chain = self.body.assignments(node.id, self.before)
        start = next((i for i in reversed(range(len(chain))) if not isinstance(chain[i], ast.AugAssign)), None)
        if start is None:
            module_level = self.body.node is self.module.tree or node.id in self.body.parameters
            return None if module_level or chain else self.module.constant(node.id)
        if not self.body.runs_with(chain[start], self.anchor) and not self._at(chain[start]).template(
                chain[start].value).has_words:
            return None  # a value bound on another path only (`if ...: o = f(o)`): the name says more
        # The sum is built in one list, not by `+` at each step: a long chain of `msg += ...` would
        # cost time quadratic in the template's size at every raise that reads it.
        parts: list[Part] = []
        forms: frozenset[str] = frozenset()
        chars = 0
        for stmt in chain[start:]:
            if isinstance(stmt, ast.AugAssign) and not isinstance(stmt.op, ast.Add):
                return None
            piece = self._at(stmt).template(stmt.value)
            # `msg += ...` under a branch the raise is not in adds words only sometimes; in a loop, any number of times.
            how = self._how(stmt)
            piece = piece if how == ALWAYS else optional(piece) if how == SOMETIMES else repeated(piece)
            merge_into(parts, piece.parts)
            forms |= piece.forms
            chars += sum(len(p.text) for p in piece.parts)
            if len(parts) > MAX_TEMPLATE_PARTS or chars > MAX_TEMPLATE_CHARS:
                return None
        return Template(tuple(parts), forms)

    def resolve_list(self, node: ast.Name) -> list[Element] | None:
        key = ("list", node.id, self.before, id(self.anchor), self.depth)
        if key not in self.body.memo:
            self.body.memo[key] = self._resolve_list(node)
        return self.body.memo[key]  # type: ignore[return-value]

    def _resolve_list(self, node: ast.Name) -> list[Element] | None:
        if self.depth >= MAX_RESOLVE_DEPTH:
            return None
        chain = self.body.assignments(node.id, self.before)
        start = next((s for s in reversed(chain) if not isinstance(s, ast.AugAssign)), None)
        if start is None or not isinstance(start.value, (ast.List, ast.Tuple)):
            return None
        elements = [(self._at(start).template(value), ALWAYS) for value in start.value.elts]
        updates = self.body.list_updates(node.id, start.lineno + 1, self.before)
        if len(elements) + len(updates) > MAX_TEMPLATE_PARTS:
            return None  # more pieces than a template may hold, each appended at least once
        for stmt in updates:
            how = self._how(stmt)
            elements.extend((self._at(stmt).template(value), how) for value in _added(stmt))
        return elements

    def resolve_call(self, node: ast.Call) -> Template | None:
        if not isinstance(node.func, ast.Name):
            return None
        bound = self.body.last_assignment(node.func.id, self.before)
        if isinstance(bound, ast.Attribute) and bound.attr == "format":  # fmt = "... {}".format; fmt(x)
            return self.template(ast.Call(func=bound, args=node.args, keywords=node.keywords))
        helper = self._helper(node.func.id)
        returned = self.module.returned_by(helper) if helper is not None else None
        if returned is None:
            return None
        return bind_arguments(returned, helper.args, node)  # type: ignore[union-attr]

    def _helper(self, name: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        """The function `name` calls here: one defined in this function, else the module's, unless a local shadows it."""
        nested = self.body.nested_function(name, self.before)
        if nested is not None:
            return nested
        return None if self.body.is_local(name, self.before) else self.module.defs.get(name)

    def is_helper(self, node: ast.Call) -> bool:
        return isinstance(node.func, ast.Name) and self._helper(node.func.id) is not None

    def holds_words(self, name: str) -> bool:
        if self.body.bound_by_except(name):
            return True
        return not self.body.is_local(name, self.before) and self.module.binds_words(name)

    def shadows(self, name: str) -> bool:
        return self.body.is_local(name, self.before)


def _has_text(node: ast.expr | None) -> bool:
    return node is not None and any(isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value.strip()
                                    for n in ast.walk(node))


def _added(stmt: ast.stmt) -> list[ast.expr]:
    """The pieces an `append`, `extend` or `+=` adds; an unknown iterable is one opaque piece."""
    value = stmt.value if isinstance(stmt, ast.AugAssign) else stmt.value.args[0]  # type: ignore[union-attr]
    if isinstance(stmt, ast.Expr) and stmt.value.func.attr == "append":  # type: ignore[union-attr]
        return [value]
    if isinstance(value, (ast.List, ast.Tuple)):
        return list(value.elts)
    return [value]


def bind_arguments(template: Template, params: ast.arguments, call: ast.Call,
                   resolve: Callable[[ast.expr], Template] | None = None) -> Template:
    """A helper's template as one call of it reads: each parameter replaced by the argument passed.

    A string literal passed for a parameter the template shows whole becomes text (`'jit'` in
    `{api_name}ted` gives `jitted`); any other argument replaces the parameter's name in the
    placeholder's expression. A template that is one parameter and nothing else (a factory that
    adds no words to the message it is passed) is what `resolve` (the caller's resolver) makes of
    the argument, when that spells words (an f-string): the raise's own words. A parameter among
    the helper's own words stays a placeholder, so that raises passing it different details
    (`escaped_tracer_error("Can't lift sublevels ...")`) keep one template, and their lineage.
    """
    bound = _bound_arguments(params, call)
    whole = template.parts[0] if len(template.parts) == 1 and template.parts[0].kind in ("expr", "opaque") else None
    if resolve is not None and whole is not None and whole.text in bound:
        worded = resolve(bound[whole.text])
        if worded.has_words:
            return Template(worded.parts, worded.forms | template.forms | {"helper"})
    result = EMPTY
    for part in template.parts:
        result = result + _bind_part(part, bound)
    return Template(result.parts, template.forms | {"helper"})


def _bound_arguments(params: ast.arguments, call: ast.Call) -> dict[str, ast.expr]:
    names = [a.arg for a in (*params.posonlyargs, *params.args)]
    defaults = dict(zip(names[len(names) - len(params.defaults):], params.defaults))
    defaults.update({a.arg: d for a, d in zip(params.kwonlyargs, params.kw_defaults) if d is not None})
    # A default shows only when it is text; `detail=None` stays `{detail}`, a name for what may be passed.
    bound: dict[str, ast.expr] = {name: value for name, value in defaults.items()
                                  if isinstance(value, ast.Constant) and isinstance(value.value, str)}
    for name, value in zip(names, call.args):
        if isinstance(value, ast.Starred):
            break
        bound[name] = value
    bound.update({kw.arg: kw.value for kw in call.keywords if kw.arg})
    return bound


def _bind_part(part: Part, bound: dict[str, ast.expr]) -> Template:
    if part.kind not in ("expr", "opaque"):
        return Template((part,))
    value = bound.get(part.text)
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return literal(value.value)
    text = part.text
    for name, value in bound.items():
        text = re.sub(rf"(?<![\w.]){re.escape(name)}\b", _expression(value).replace("\\", "\\\\"), text)
    return Template((Part(part.kind, text),))


def _expression(value: ast.expr) -> str:
    text = ast.unparse(value)
    simple = isinstance(value, (ast.Name, ast.Attribute, ast.Call, ast.Subscript, ast.Constant))
    return text if simple else f"({text})"


def _generator_called(value: ast.expr | None, defs: dict[str, ast.AST]) -> ast.AST | None:
    """The module function whose results `value` returns: `g(...)`, `list(g(...))` or `tuple(g(...))`."""
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in ("list", "tuple") \
            and len(value.args) == 1:
        value = value.args[0]
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name):
        return defs.get(value.func.id)
    return None


_BLOCK_FIELDS = frozenset({"body", "orelse", "finalbody", "handlers", "cases"})


def _calls_in(stmt: ast.stmt) -> list[ast.Call]:
    """The calls in a statement's own expressions (not in the statements of its blocks)."""
    calls = []
    for field, value in ast.iter_fields(stmt):
        if field in _BLOCK_FIELDS:
            continue
        for node in value if isinstance(value, list) else [value]:
            if isinstance(node, ast.AST):
                calls.extend(n for n in ast.walk(node) if isinstance(n, ast.Call))
    return calls


def _bound_once(function: ast.AST, name: str) -> ast.Assign | None:
    """The assignment `name = ...` of the function, when it is the only thing that binds `name` there (or in a
    function nested in it); None otherwise."""
    binders, assigns = 0, []
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, (ast.Store, ast.Del)) \
                or isinstance(node, ast.ExceptHandler) and node.name == name \
                or isinstance(node, ast.arg) and node.arg == name:
            binders += 1
        elif isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                and node.targets[0].id == name:
            assigns.append(node)
    return assigns[0] if binders == 1 and len(assigns) == 1 else None
