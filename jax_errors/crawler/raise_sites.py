"""Find every `raise` in one Python file and describe it: where, what, why and with which message."""

from __future__ import annotations

import ast
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

from jax_errors.crawler.assignments import FunctionBody
from jax_errors.crawler.class_words import ClassWords, InitMessage, class_words
from jax_errors.crawler.deprecation_tables import getattr_qualname, removed_names
from jax_errors.crawler.imports import ImportTable, module_imports
from jax_errors.crawler.messages import MessageResolver, ModuleFunctions, bind_arguments
from jax_errors.crawler.statements import Scope, StatementVisitor, iter_statements, parse_source
from jax_errors.db.text import storable
from jax_errors.template import EMPTY, Part, Template, alternatives

# Bump when extraction changes: blobs scanned by another version are scanned again.
EXTRACTOR_VERSION = "18"
EXCERPT_CONTEXT = 15
EXCERPT_LINE_CHARS = 400


@dataclass(frozen=True)
class Guard:
    kind: str  # "if", "else", "except", "while", "case"; "access": reading the attribute `condition` names
    condition: str


@dataclass(frozen=True)
class RaiseSite:
    """One `raise` statement of one file, as the source spells it."""

    lineno: int
    end_lineno: int
    qualname: str
    # "raise" (a new exception), "reraise" (bare raise), "raise_variable" (raise e), or
    # "class_message": the message an exception class's __init__ passes to its base, which is
    # what `raise ConcretizationTypeError(tracer, context)` really says; "function_message": what a
    # module function returns as a message (or a factory's exception's), for raises in other modules.
    kind: str
    exc_class: str | None  # of the two wording kinds, the class's or function's dotted path
    exc_expr: str  # of "function_message", the class its exceptions are, or its own name when it returns words
    template: Template
    guard: Guard | None
    cause: str | None
    excerpt_start: int
    excerpt: str


class _PendingGuard:
    """A guard on the visitor's stack: its condition is written out only if a raise stands under it."""

    def __init__(self, kind: str, render: Callable[[], str]) -> None:
        self.kind = kind
        self._render = render

    @cached_property
    def condition(self) -> str:
        return self._render()


@dataclass
class _Scope(Scope):
    guards: list[_PendingGuard] = field(default_factory=list)


def extract_raise_sites(source: bytes | str, path: str) -> list[RaiseSite]:
    """Parse one file and return its raise sites in source order.

    Raises:
        SourceParseError: the file is not valid Python for this interpreter.
    """
    text, tree = parse_source(source, path)
    return raise_sites_of(tree, path=path, lines=text.splitlines())


def raise_sites_of(tree: ast.Module, *, path: str, lines: list[str],
                   imports: ImportTable | None = None) -> list[RaiseSite]:
    """The raise sites of a file already parsed (the crawl reads its calls from the same tree and imports)."""
    visitor = RaiseSiteVisitor(tree, path=path, lines=lines, imports=imports)
    visitor.visit(tree)
    return visitor.sites


class RaiseSiteVisitor(StatementVisitor):
    """Walks a module once, keeping the scope and guard stacks that each raise needs."""

    scopes: list[_Scope]

    def __init__(self, tree: ast.Module, *, path: str, lines: list[str], imports: ImportTable | None = None) -> None:
        super().__init__(tree)
        self.tree = tree
        self.path = path
        self.lines = lines
        self.imports = imports or module_imports(tree, path)
        self.sites: list[RaiseSite] = []
        self.functions = ModuleFunctions(tree, "\n".join(lines))
        self._bodies: dict[ast.AST, FunctionBody] = {}
        self._maker_bindings: dict[ast.AST, dict[str, list[tuple[int, int, ast.Call | None]]]] = {}
        self._class_words: dict[str, ClassWords] = {}  # the module's classes read so far, by name
        self._init_messages: dict[ast.ClassDef, InitMessage] = {}

    def new_scope(self, name: str, node: ast.AST) -> _Scope:
        return _Scope(name, node)

    # Scopes -----------------------------------------------------------------------------------
    def visit_functiondef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.visit_scope(node, node.name)
        owner = self.scopes[-1]
        if node.name == "__init__" and isinstance(owner.node, ast.ClassDef):
            self._read_init_message(owner.node, node)
        elif isinstance(owner.node, ast.Module) and self.functions.defs.get(node.name) is node:
            self._record_function_message(node)

    def visit_classdef(self, node: ast.ClassDef) -> None:
        super().visit_classdef(node)
        self._record_class_message(node)

    def _read_init_message(self, cls: ast.ClassDef, init: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        """Read the message an `__init__` passes to its base's: `super().__init__(message)` or `Base.__init__(self,
        message)`."""
        self.scopes.append(_Scope(init.name, init))
        try:
            for stmt in iter_statements(init, into_scopes=False):
                passed = _base_init_message(stmt)
                if passed is not None:
                    message, base = passed
                    parameters = [a.arg for a in (*init.args.posonlyargs, *init.args.args)][1:]
                    template = _with_locals_spelled(self._resolver(stmt).template(message), init)
                    self._init_messages[cls] = InitMessage(template,
                                                           parameters[0] if parameters else None, base, stmt,
                                                           init)
                    return
        finally:
            self.scopes.pop()

    def _record_class_message(self, cls: ast.ClassDef) -> None:
        """Record the message an exception class makes (`class_words`): words it builds, or words it puts around a
        message passed in. Bases are those of the module; a class without bases is a mixin, read but not recorded."""
        at_module = isinstance(self.scopes[-1].node, ast.Module)
        bases = [self._class_words.get(b.id) if at_module and isinstance(b, ast.Name) else None for b in cls.bases]
        init = self._init_messages.pop(cls, None)
        # `Base.__init__(self, ...)`, or `errors.Base.__init__(...)`: a base of the module, by its name
        named_base = self._class_words.get(init.base.rpartition(".")[2]) if at_module and init and init.base else None
        made = class_words(cls, bases, init, named_base)
        if at_module:
            self._class_words[cls.name] = made
        template = made.named(cls.name)
        if not cls.bases or template is None or not template.has_words:
            return
        self.scopes.append(_Scope(cls.name, cls))
        if init is not None:
            self.scopes.append(_Scope("__init__", init.function))
        try:
            self.sites.append(self._site(init.statement if init else cls, "class_message",
                                         f"{self.imports.module}.{cls.name}", cls.name, template, None, None))
        finally:
            del self.scopes[-2 if init is not None else -1:]

    def _record_function_message(self, function: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        """Record the message a module function words (a string, or a factory's exception), for raises in other modules."""
        template, raised = self.functions.returned_message(function.name), function.name
        made = self.functions.raised_by(function.name)
        if made is not None and (exc_class := self.imports.resolve(made[0])) and _is_exception_name(exc_class):
            _exc, message, inside = made
            template, raised = (inside.template(message) if message is not None else None), exc_class
        elif template is None and (makers := self.functions.factories_made_by(function)) is not None \
                and (exc_class := self.imports.resolve(makers[0])) and _is_exception_name(exc_class):
            template, raised = makers[1], exc_class  # what the exceptions it yields makers of say
        if template is None or not template.has_words:
            return
        returns, _body = self.functions.returns(function.name)
        self.sites.append(self._site(returns[-1] if returns else function, "function_message",
                                     f"{self.imports.module}.{function.name}", raised, template, None, None))

    visit_asyncfunctiondef = visit_functiondef

    def visit_assign(self, node: ast.Assign | ast.AnnAssign) -> None:
        """A module's deprecation table (`deprecation_tables`): each name it removed raises `AttributeError` with the
        entry's words when read, from the module's `__getattr__`, which is the site's function, the name called."""
        if not isinstance(self.scopes[-1].node, ast.Module):
            return
        for removed in removed_names(self.tree, node):
            self.scopes.append(_Scope(getattr_qualname(removed.name), removed.entry))
            try:
                template = self._resolver(node).template(removed.message)
                attribute = Guard("access", f"{self.imports.module}.{removed.name}")
                self.sites.append(self._site(removed.entry, "raise", "AttributeError", "AttributeError", template,
                                             attribute, None))
            finally:
                self.scopes.pop()

    visit_annassign = visit_assign

    @property
    def qualname(self) -> str:
        names: list[str] = []
        for outer, scope in zip(self.scopes, self.scopes[1:]):
            names.append(scope.name)
            if scope.is_function:
                names.append("<locals>")
        if names and names[-1] == "<locals>":
            names.pop()
        return ".".join(names) or "<module>"

    # Guards -----------------------------------------------------------------------------------
    def _visit_guarded(self, guard: _PendingGuard, body: list[ast.stmt]) -> None:
        guards = self.scopes[-1].guards
        guards.append(guard)
        try:
            for stmt in body:
                self.visit(stmt)
        finally:
            guards.pop()

    # Conditions are written out only for guards a raise stands under: most `if`s guard none.
    def visit_if(self, node: ast.If) -> None:
        condition = _PendingGuard("if", lambda: ast.unparse(node.test))
        self._visit_guarded(condition, node.body)
        if node.orelse:
            self._visit_guarded(_PendingGuard("else", lambda: f"not ({condition.condition})"), node.orelse)

    def visit_while(self, node: ast.While) -> None:
        self._visit_guarded(_PendingGuard("while", lambda: ast.unparse(node.test)), node.body)
        for stmt in node.orelse:
            self.visit(stmt)

    def visit_excepthandler(self, node: ast.ExceptHandler) -> None:
        caught = _PendingGuard("except", lambda: ast.unparse(node.type) if node.type else "BaseException")
        self._visit_guarded(caught, node.body)

    def visit_match_case(self, node: ast.match_case) -> None:
        def pattern() -> str:
            text = ast.unparse(node.pattern)
            return text + f" if {ast.unparse(node.guard)}" if node.guard else text
        self._visit_guarded(_PendingGuard("case", pattern), node.body)

    # Raises -----------------------------------------------------------------------------------
    def visit_raise(self, node: ast.Raise) -> None:
        scope = self.scopes[-1]
        guard = scope.guards[-1] if scope.guards else None
        kind, exc_class, exc_expr, template = self._describe(node)
        cause = ast.unparse(node.cause) if node.cause else None
        self.sites.append(self._site(node, kind, exc_class, exc_expr, template, guard, cause))

    def _site(self, node: ast.stmt, kind: str, exc_class: str | None, exc_expr: str, template: Template,
              guard: Guard | _PendingGuard | None, cause: str | None) -> RaiseSite:
        start = max(1, node.lineno - EXCERPT_CONTEXT)
        end = min(len(self.lines), (node.end_lineno or node.lineno) + EXCERPT_CONTEXT)
        return RaiseSite(
            lineno=node.lineno,
            end_lineno=node.end_lineno or node.lineno,
            qualname=self.qualname,
            kind=kind,
            exc_class=exc_class,
            exc_expr=storable(exc_expr),
            # A literal may spell a lone surrogate ("\ud800"), which no database (nor an id's hash) takes.
            template=Template(tuple(Part(p.kind, storable(p.text)) for p in template.parts), template.forms),
            guard=Guard(guard.kind, storable(guard.condition)) if guard else None,
            cause=storable(cause),
            excerpt_start=start,
            excerpt="\n".join(_clipped(line) for line in self.lines[start - 1:end]),
        )

    def _describe(self, node: ast.Raise) -> tuple[str, str | None, str, Template]:
        if node.exc is None:
            return "reraise", None, "", EMPTY
        exc = node.exc
        body = self._body()
        if isinstance(exc, ast.Name):
            assigned = body.last_assignment(exc.id, node.lineno)
            if isinstance(assigned, ast.Call):
                exc = assigned  # err = ValueError(...); raise err
            elif body.bound_by_except(exc.id):
                return "raise_variable", None, exc.id, EMPTY
            elif assigned is None and not body.is_local(exc.id, node.lineno):
                made = self.functions.top_level.last_assignment(exc.id)
                if isinstance(made, ast.Call):
                    exc = made  # `_error = ValueError("...")` at module level; `raise _error` in a function
        if isinstance(exc, ast.IfExp) and isinstance(exc.body, ast.Call) and \
                self._maker_from(exc.body.func, node.lineno) is not None:
            exc = exc.body  # `raise (err('tree_map tree') if err is not None else e)`: the maker's, or the caught one
        call = exc if isinstance(exc, ast.Call) else None
        target = call.func if call else exc
        if call is not None and (maker := self._maker_from(target, node.lineno)) is not None:
            # `e, *_ = prefix_errors(specs, args); raise e('in_specs')`: the message is one that call's makers make
            return "raise", None, ast.unparse(target), Template((Part("opaque", ast.unparse(maker)),))
        factory = self._factory(call, node)
        if factory is not None:
            exc_class, template = factory
            return "raise", exc_class, ast.unparse(target), template
        exc_class = self.imports.resolve(target)
        message = call.args[0] if call and call.args else None
        if message is None and call:
            message = next((kw.value for kw in call.keywords if kw.arg in {"msg", "message"}), None)
        if message is None:
            template = EMPTY
        else:
            template = self._passed_in(message, node) or self._resolver(node).template(message)
            if isinstance(message, ast.Starred) or len(call.args) > 1:  # type: ignore[union-attr]
                template = template + Template((), frozenset({"multiple_args"}))
            if not template.has_words and _is_factory_call(target):
                template = _unknown(template)  # `make_error(t)` of another module: `t` is not the message
        return "raise", exc_class, ast.unparse(target), template

    def _passed_in(self, message: ast.expr, node: ast.Raise) -> Template | None:
        """`def f(msg): raise E(msg)`: the messages the module's calls of `f` pass in, each an alternative."""
        function, body = self._function(), self._body()
        if not isinstance(message, ast.Name) or message.id not in body.parameters or \
                body.assignments(message.id, node.lineno) or self.functions.defs.get(getattr(function, "name", "")) \
                is not function:
            return None
        variants = self.functions.passed_in(function.name, message.id)  # type: ignore[attr-defined]
        if not variants:
            return None
        template = variants[0] if len(variants) == 1 else alternatives(variants)
        return template.with_form("passed_in")

    def _maker_from(self, target: ast.expr, before: int) -> ast.Call | None:
        """The call a raised name was taken from, when the raise calls it: `e, *_ = errors(...)`, `for e in
        errors(...)`, `e = errors(...)[0]` or `e = next(errors(...), None)`, then `raise e(...)` (the call
        returns makers of exceptions)."""
        if not isinstance(target, ast.Name):
            return None
        function = self._function()
        if function not in self._maker_bindings:
            self._maker_bindings[function] = _name_bindings(self._body().statements)
        bindings = self._maker_bindings[function].get(target.id, [])
        found = bisect_left(bindings, (before,), key=lambda binding: binding[:1]) - 1
        return bindings[found][2] if found >= 0 else None

    def _factory(self, call: ast.Call | None, node: ast.Raise) -> tuple[str | None, Template] | None:
        """`raise make_error(x)` or `raise self.parse_err(x)`, where a function of this module or a method of this
        class returns `SomeError(message)`: its class and message, with the words the raise passes in."""
        factory = self._factory_def(call) if call is not None else None
        if factory is None:
            return None
        function, params = factory
        made = self.functions.raised_by_def(function)
        if made is None:
            return None
        exc, message, inside = made
        exc_class = self.imports.resolve(exc)
        if exc_class is None:
            return None
        template = inside.template(message) if message is not None else EMPTY
        bound = bind_arguments(template, params, call, self._resolver(node).template)  # type: ignore[arg-type]
        return exc_class, bound.with_form("factory")

    def _factory_def(self, call: ast.Call) -> tuple[ast.AST, ast.arguments] | None:
        """The function a factory call names, with the parameters the call's arguments go to."""
        func = call.func
        if isinstance(func, ast.Name) and not self._body().is_local(func.id, call.lineno) \
                and func.id in self.functions.defs:
            function = self.functions.defs[func.id]
            return function, function.args
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self":
            owner = next((s.node for s in reversed(self.scopes) if s.is_class), None)
            method = next((n for n in getattr(owner, "body", []) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                           and n.name == func.attr), None)
            if method is not None and method.args.args:
                params = ast.arguments(posonlyargs=[], args=method.args.args[1:], vararg=method.args.vararg,
                                       kwonlyargs=method.args.kwonlyargs, kw_defaults=method.args.kw_defaults,
                                       kwarg=method.args.kwarg, defaults=method.args.defaults)
                return method, params
        return None

    # Messages ---------------------------------------------------------------------------------
    def _function(self) -> ast.AST:
        for scope in reversed(self.scopes):
            if scope.is_function:
                return scope.node
        return self.scopes[0].node

    def _body(self) -> FunctionBody:
        function = self._function()
        if function not in self._bodies:
            self._bodies[function] = FunctionBody(function)
        return self._bodies[function]

    def _resolver(self, anchor: ast.stmt) -> MessageResolver:
        return MessageResolver(self._body(), self.functions, before=anchor.lineno, anchor=anchor)


def _name_bindings(statements: list[ast.stmt]) -> dict[str, list[tuple[int, int, ast.Call | None]]]:
    """Each name's bindings among `statements`, in source order, with the call it was taken from when it was: by
    unpacking (`e, *_ = f(...)`), by a loop (`for e in f(...)`), by an index (`e = f(...)[0]`) or by `next(f(...),
    None)`, else None. The call may be named in between: `errors = f(...)`, then `e = errors[0]`."""
    found: dict[str, list[tuple[int, int, ast.Call | None]]] = {}
    results: dict[str, ast.Call] = {}  # names bound, as of the statement read, to a call's whole result
    for stmt in sorted(statements, key=lambda stmt: (stmt.lineno, stmt.col_offset)):  # source order
        bound: list[tuple[str, ast.expr | None]] = []
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target = stmt.targets[0]
            if isinstance(target, (ast.Tuple, ast.List)):
                names = [e.value if isinstance(e, ast.Starred) else e for e in target.elts]
                bound = [(n.id, stmt.value) for n in names if isinstance(n, ast.Name)]
            elif isinstance(target, ast.Name):
                bound = [(target.id, _taken_from(stmt.value))]
        elif isinstance(stmt, ast.For) and isinstance(stmt.target, ast.Name):
            bound = [(stmt.target.id, stmt.iter)]
        for name, value in bound:
            if isinstance(value, ast.Name):
                value = results.get(value.id)  # `errors = f(...)` before: its items are the call's
            found.setdefault(name, []).append((stmt.lineno, stmt.col_offset, value if isinstance(value, ast.Call)
                                               else None))
        for target in (stmt.targets if isinstance(stmt, ast.Assign) else [getattr(stmt, "target", None)]):
            if isinstance(target, ast.Name):
                if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Call):
                    results[target.id] = stmt.value
                else:
                    results.pop(target.id, None)
            elif isinstance(target, (ast.Tuple, ast.List)):
                for element in ast.walk(target):
                    if isinstance(element, ast.Name):
                        results.pop(element.id, None)
    for bindings in found.values():
        bindings.sort(key=lambda binding: binding[:2])
    return found


def _taken_from(value: ast.expr) -> ast.expr | None:
    """What one item of `value` is taken from: `f(...)[0]`, `errors[0]` or `next(f(...), None)`."""
    if isinstance(value, ast.Subscript):
        return value.value
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id == "next" and value.args:
        return value.args[0]
    return None


def _clipped(line: str) -> str:
    """An excerpt's line, cut at EXCERPT_LINE_CHARS (eighty kilobytes of raises on one line, stored per raise)."""
    return line if len(line) <= EXCERPT_LINE_CHARS else line[:EXCERPT_LINE_CHARS] + " …"


def _is_factory_call(target: ast.expr) -> bool:
    """`raise module.make_error(x)`: a function (lowercase, by convention), not an exception class."""
    name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
    return name[:1].islower()


def _unknown(template: Template) -> Template:
    """The same pieces, each opaque: what they stand for in the message is not known here."""
    return Template(tuple(Part("opaque", p.text) if p.kind == "expr" else p for p in template.parts), template.forms)


def _is_exception_name(dotted: str) -> bool:
    return dotted.rpartition(".")[2].endswith(("Error", "Exception", "Warning", "Exit", "Interrupt"))


def _with_locals_spelled(template: Template, function: ast.FunctionDef | ast.AsyncFunctionDef) -> Template:
    """A template whose placeholders name locals the function sets once, at its top, to an attribute or a call
    (`error_page = self._error_page`): those placeholders spelled as that value, which the class may know."""
    values: dict[str, list[ast.expr]] = {}
    for stmt in function.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            values.setdefault(stmt.targets[0].id, []).append(stmt.value)
    spelled = {name: ast.unparse(found[0]) for name, found in values.items()
               if len(found) == 1 and isinstance(found[0], (ast.Attribute, ast.Call))}
    return Template(tuple(Part("expr", spelled[p.text]) if p.kind == "expr" and p.text in spelled else p
                          for p in template.parts), template.forms)


def _base_init_message(stmt: ast.stmt) -> tuple[ast.expr, str | None] | None:
    """The message argument of `super().__init__(msg)` or `Base.__init__(self, msg)`, if `stmt` is one, and the base
    named (None under `super()`)."""
    if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
        return None
    call = stmt.value
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr == "__init__"):
        return None
    if isinstance(func.value, ast.Call) and isinstance(func.value.func, ast.Name) and func.value.func.id == "super":
        return (call.args[0], None) if call.args else None
    if isinstance(func.value, (ast.Name, ast.Attribute)) and len(call.args) >= 2:
        return call.args[1], ast.unparse(func.value)  # Base.__init__(self, message)
    return None
