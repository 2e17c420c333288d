"""Walk the statements of a module: raises and imports are statements, so expressions are skipped."""

from __future__ import annotations

import ast
from collections.abc import Iterator

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
