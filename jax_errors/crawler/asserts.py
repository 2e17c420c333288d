"""Find every assert-that-raises in one test file: `assertRaises*` and `pytest.raises`, both forms.

A context manager (`with self.assertRaisesRegex(E, "..."):`) records the statements of its
block; the callable form (`self.assertRaises(E, f, x)`) records the call it makes (`f(x)`).
"""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property

from jax_errors.crawler.imports import ImportTable, module_name
from jax_errors.crawler.statements import StatementVisitor, iter_statements, parse_source
from jax_errors.crawler.template_builder import build_template
from jax_errors.template import Template

# Bump when extraction changes, so stored asserts can tell which miner made them.
MINER_VERSION = "1"
MAX_STATEMENTS = 4000
MAX_RESOLVE_DEPTH = 6

# assert method -> (pattern kind, positional index of the pattern, its keyword name)
ASSERT_METHODS = {
    "assertRaises": (None, None, None),
    "assertRaisesRegex": ("regex", 1, "expected_regex"),
    "assertRaisesRegexp": ("regex", 1, "expected_regex"),
    "assertRaisesWithLiteralMatch": ("literal", 1, "expected_exception_message"),
}
PYTEST_RAISES = "pytest.raises"

# A test the runner selects to run an assert: (class name or None at module level, method).
TestRef = tuple[str | None, str]


@dataclass(frozen=True)
class MinedAssert:
    """One assert that a block (or a call) raises, as the test file spells it."""

    path: str
    lineno: int
    end_lineno: int
    col: int
    class_name: str | None
    method: str  # the function of the class (or module) that holds it
    assert_kind: str  # "assertRaises", "assertRaisesRegex", ..., "pytest.raises"
    form: str  # "with" or "call"
    exc_expr: str
    exc_classes: tuple[str, ...]  # resolved through the file's imports; unresolved ones left out
    pattern_kind: str | None  # "regex", "literal", or None (any message)
    pattern: Template | None
    statements: str
    tests: tuple[TestRef, ...] = field(default=())  # the tests that run it

    @property
    def pattern_text(self) -> str | None:
        return self.pattern.text if self.pattern is not None else None


def extract_asserts(source: bytes | str, path: str) -> list[MinedAssert]:
    """Parse one test file and return its asserts-that-raise in source order.

    Raises:
        SourceParseError: the file is not valid Python for this interpreter.
    """
    text, tree = parse_source(source, path)
    visitor = AssertVisitor(tree, path=path, text=text)
    visitor.visit(tree)
    return sorted(visitor.asserts, key=lambda a: (a.lineno, a.col))


class AssertVisitor(StatementVisitor):
    """Walks a test module's statements, keeping the class and function each assert stands in."""

    def __init__(self, tree: ast.Module, *, path: str, text: str) -> None:
        super().__init__(tree)
        self.path = path
        self.text = text
        self.imports = ImportTable(tree, module=module_name(path), is_package=False)
        self.lines = text.splitlines(keepends=True)
        self.asserts: list[MinedAssert] = []
        self.tree = tree

    @cached_property
    def callers(self) -> dict[TestRef, tuple[TestRef, ...]]:
        return test_callers(self.tree)

    # Where an assert stands ------------------------------------------------------------------
    def _place(self) -> tuple[str | None, str]:
        """The innermost class, and the outermost function directly inside it (or the module)."""
        class_index = max((i for i, s in enumerate(self.scopes) if s.is_class), default=0)
        class_name = self.scopes[class_index].name if class_index else None
        functions = [s.name for s in self.scopes[class_index + 1:] if not s.is_class]
        return class_name, functions[0] if functions else "<body>"

    def _tests(self, class_name: str | None, method: str) -> tuple[TestRef, ...]:
        if method.startswith("test"):
            return ((class_name, method),)
        return self.callers.get((class_name, method), ())

    # Asserts ---------------------------------------------------------------------------------
    def visit_with(self, node: ast.With | ast.AsyncWith) -> None:
        for item in node.items:
            kind = self._assert_kind(item.context_expr)
            if kind is not None:
                self._record(node, item.context_expr, kind, "with", self._block_source(node.body))
        self.generic_visit(node)

    visit_asyncwith = visit_with

    def visit_expr(self, node: ast.Expr) -> None:
        call = node.value
        kind = self._assert_kind(call)
        if kind is None:
            return
        # The callable comes after the exception (and the pattern, for the assertRaisesRegex kind).
        first = 1 if kind in (PYTEST_RAISES, "assertRaises") else 2
        if len(call.args) > first:  # fewer arguments: a context manager never entered
            invoked = ast.Call(func=call.args[first], args=call.args[first + 1:],
                               keywords=[k for k in call.keywords if k.arg not in {"msg", "match"}])
            self._record(node, call, kind, "call", ast.unparse(invoked))

    def _assert_kind(self, node: ast.expr) -> str | None:
        if not isinstance(node, ast.Call):
            return None
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in ASSERT_METHODS:
            return func.attr
        if self.imports.resolve(func) == PYTEST_RAISES or (
            isinstance(func, ast.Attribute) and func.attr == "raises" and self.imports.resolve_module(func.value)
            == "pytest"
        ):
            return PYTEST_RAISES
        return None

    def _record(self, node: ast.stmt, call: ast.Call, kind: str, form: str, statements: str) -> None:
        class_name, method = self._place()
        exc = call.args[0] if call.args else _keyword(call, "expected_exception")
        pattern_kind, pattern = self._pattern(call, kind)
        self.asserts.append(MinedAssert(
            path=self.path,
            lineno=node.lineno,
            end_lineno=node.end_lineno or node.lineno,
            col=call.col_offset,
            class_name=class_name,
            method=method,
            assert_kind=kind,
            form=form,
            exc_expr=ast.unparse(exc) if exc is not None else "",
            exc_classes=self._classes(exc),
            pattern_kind=pattern_kind,
            pattern=pattern,
            statements=statements[:MAX_STATEMENTS],
            tests=self._tests(class_name, method),
        ))

    def _classes(self, exc: ast.expr | None) -> tuple[str, ...]:
        elements = exc.elts if isinstance(exc, ast.Tuple) else [exc] if exc is not None else []
        resolved = (self.imports.resolve(e) for e in elements)
        return tuple(r for r in resolved if r)

    def _pattern(self, call: ast.Call, kind: str) -> tuple[str | None, Template | None]:
        if kind == PYTEST_RAISES:
            pattern_kind, node = "regex", _keyword(call, "match")
        else:
            pattern_kind, index, keyword = ASSERT_METHODS[kind]
            if pattern_kind is None:
                return None, None
            node = call.args[index] if len(call.args) > index else _keyword(call, keyword)
        if node is None:
            return None, None
        node = _unwrap_compile(node)
        if _is_re_escape(node):  # a regex that is a literal, escaped
            pattern_kind, node = "literal", node.args[0]
        return pattern_kind, self._template(node, call.lineno)

    def _template(self, node: ast.expr, before: int, depth: int = 0) -> Template:
        attribute = _self_attribute(node)
        if attribute is not None and depth < MAX_RESOLVE_DEPTH:
            value = self._class_attribute(attribute)
            if value is not None:
                node = value
        return build_template(node, resolve_name=self._resolver(before, depth))

    # Pattern variables -----------------------------------------------------------------------
    def _resolver(self, before: int, depth: int = 0):
        def resolve(name: ast.Name) -> Template | None:
            if depth >= MAX_RESOLVE_DEPTH:
                return None
            value = self._assigned(name.id, before)
            if value is None:
                return None
            value = _unwrap_compile(value)
            if _is_re_escape(value):
                value = value.args[0]
            return self._template(value, value.lineno, depth + 1)
        return resolve

    def _class_attribute(self, name: str) -> ast.expr | None:
        """`self.error` in a test: what the enclosing class body assigns to `error`."""
        for scope in reversed(self.scopes):
            if scope.is_class:
                for stmt in scope.node.body:
                    if isinstance(stmt, ast.Assign) and any(
                        isinstance(t, ast.Name) and t.id == name for t in stmt.targets
                    ):
                        return stmt.value
                return None
        return None

    def _assigned(self, name: str, before: int) -> ast.expr | None:
        """What `name` was last assigned before line `before`: in the function, else at module level."""
        for scope in reversed(self.scopes):
            if scope.is_class:
                continue
            found = [
                stmt for stmt in _scope_statements(scope.node)
                if isinstance(stmt, ast.Assign) and stmt.lineno < before
                and any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets)
            ]
            if found:
                return max(found, key=lambda s: s.lineno).value
            before = 10**9  # a module-level constant may be assigned after the function
        return None

    def _block_source(self, body: list[ast.stmt]) -> str:
        """The block's lines as written (`ast.get_source_segment` splits the whole file each call)."""
        start, end = body[0].lineno, max(stmt.end_lineno or stmt.lineno for stmt in body)
        return textwrap.dedent("".join(self.lines[start - 1:end])).rstrip("\n")


def _scope_statements(node: ast.AST) -> Iterator[ast.stmt]:
    if isinstance(node, ast.Module):
        return iter(node.body)
    return iter_statements(node, into_scopes=False)


def _keyword(call: ast.Call, name: str) -> ast.expr | None:
    return next((k.value for k in call.keywords if k.arg == name), None)


def _self_attribute(node: ast.expr) -> str | None:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in {"self", "cls"}:
        return node.attr
    return None


def _unwrap_compile(node: ast.expr) -> ast.expr:
    """`re.compile(pattern, flags)`: the pattern (the flags only loosen how it matches)."""
    if isinstance(node, ast.Call) and node.args and isinstance(node.func, ast.Attribute) \
            and node.func.attr == "compile" and isinstance(node.func.value, ast.Name) and node.func.value.id == "re":
        return node.args[0]
    return node


def _is_re_escape(node: ast.expr) -> bool:
    return (isinstance(node, ast.Call) and len(node.args) == 1 and isinstance(node.func, ast.Attribute)
            and node.func.attr == "escape" and isinstance(node.func.value, ast.Name) and node.func.value.id == "re")


def test_callers(tree: ast.Module) -> dict[TestRef, tuple[TestRef, ...]]:
    """For each helper function or method, the test methods that call it (by name, one level deep).

    An assert inside a helper runs only when a test calls it; matching names across every class
    of the module also catches tests that inherit the helper from a base class.
    """
    tests: list[tuple[TestRef, set[str]]] = []
    helpers: list[tuple[TestRef, str]] = []
    for owner, function in _functions(tree):
        ref = (owner, function.name)
        if function.name.startswith("test"):
            tests.append((ref, _names_used(function)))
        else:
            helpers.append((ref, function.name))
    return {
        ref: tuple(test for test, used in tests if name in used)
        for ref, name in helpers
    }


def _functions(tree: ast.Module) -> Iterator[tuple[str | None, ast.FunctionDef | ast.AsyncFunctionDef]]:
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield None, node
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    yield node.name, item


def _names_used(function: ast.AST) -> set[str]:
    used: set[str] = set()
    for node in ast.walk(function):
        if isinstance(node, ast.Attribute):
            used.add(node.attr)
        elif isinstance(node, ast.Name):
            used.add(node.id)
    return used
