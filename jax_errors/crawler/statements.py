"""Walk the statements of a module: raises and imports are statements, so expressions are skipped."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass

from jax_errors.exceptions import SourceParseError


def parse_source(source: bytes | str, path: str) -> tuple[str, ast.Module]:
    """Decode and parse one file of JAX's source (or tests): its text and its module.

    Raises:
        SourceParseError: the file is not valid Python for this interpreter.
    """
    text = source.decode("utf-8", errors="replace") if isinstance(source, bytes) else source
    try:
        return text, ast.parse(text, filename=path)
    except (SyntaxError, ValueError) as error:
        reason = getattr(error, "msg", None) or str(error)
        raise SourceParseError(path, getattr(error, "lineno", None), reason) from error
    except (RecursionError, MemoryError) as error:  # the parser's own stack: `not not not ...` 10,000 deep
        raise SourceParseError(path, None, f"too deeply nested to parse ({type(error).__name__})") from error


_STATEMENT_FIELDS = ("body", "orelse", "finalbody", "handlers", "cases")
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def child_statements(node: ast.AST) -> list[ast.AST]:
    """The statements (and except handlers, match cases) directly inside `node`."""
    children: list[ast.AST] = []
    for name in _STATEMENT_FIELDS:
        value = getattr(node, name, None)
        if isinstance(value, list):
            children.extend(value)
    return children


def iter_statements(root: ast.AST, *, into_scopes: bool = True) -> Iterator[ast.stmt]:
    """Every statement below `root`; with `into_scopes=False`, not those of nested defs and classes."""
    stack = child_statements(root)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.stmt):
            yield node
        if into_scopes or not isinstance(node, _SCOPES):
            stack.extend(child_statements(node))


def block_paths(root: ast.AST) -> dict[int, tuple[tuple[int, str], ...]]:
    """For each statement below `root` (not inside nested scopes), the blocks that hold it.

    A block is (id of the compound statement, field name): `if` body and `else` are different
    blocks, so a statement runs whenever another does only if its path is a prefix of the other's.
    """
    paths: dict[int, tuple[tuple[int, str], ...]] = {}
    stack: list[tuple[ast.AST, tuple[tuple[int, str], ...]]] = [(root, ())]
    while stack:
        node, path = stack.pop()
        if node is not root and isinstance(node, _SCOPES):
            continue
        for name in _STATEMENT_FIELDS:
            children = getattr(node, name, None)
            if not isinstance(children, list):
                continue
            inner = path + ((id(node), name),)
            for child in children:
                paths[id(child)] = inner
                stack.append((child, inner))
    return paths


@dataclass
class Scope:
    """A module, class or function that a visitor is inside."""

    name: str
    node: ast.AST

    @property
    def is_function(self) -> bool:
        return isinstance(self.node, (ast.FunctionDef, ast.AsyncFunctionDef))

    @property
    def is_class(self) -> bool:
        return isinstance(self.node, ast.ClassDef)


class StatementVisitor:
    """Walks a module's statements, calling `visit_<node type>` for each, and keeps the stack of scopes.

    Subclasses add the `visit_*` methods they need; `new_scope` makes the scope objects they keep.
    """

    def __init__(self, tree: ast.Module) -> None:
        self.scopes: list[Scope] = [self.new_scope("<module>", tree)]

    def new_scope(self, name: str, node: ast.AST) -> Scope:
        return Scope(name, node)

    def visit(self, node: ast.AST) -> None:
        getattr(self, f"visit_{type(node).__name__.lower()}", self.generic_visit)(node)

    def generic_visit(self, node: ast.AST) -> None:
        # Raises and asserts are statements, so only statement lists are walked: expressions never hold one.
        for child in child_statements(node):
            self.visit(child)

    def visit_classdef(self, node: ast.ClassDef) -> None:
        self.visit_scope(node, node.name)

    def visit_functiondef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.visit_scope(node, node.name)

    visit_asyncfunctiondef = visit_functiondef

    def visit_scope(self, node: ast.AST, name: str) -> None:
        """Visit the statements of a class or function, inside its scope."""
        self.scopes.append(self.new_scope(name, node))
        try:
            self.generic_visit(node)
        finally:
            self.scopes.pop()
