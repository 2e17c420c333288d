"""Walk the statements of a module: raises and imports are statements, so expressions are skipped."""

from __future__ import annotations

import ast
import io
import os
import tokenize
from collections.abc import Iterator
from dataclasses import dataclass

from jax_errors.exceptions import SourceParseError

# JAX's largest source file is about 400 KB; one of many megabytes is data, and parsing it takes
# seconds and gigabytes (a 30 MB list literal: 13 s and 3 GB).
MAX_SOURCE_BYTES = int(os.environ.get("JAX_ERRORS_MAX_SOURCE_BYTES", "4000000"))


def parse_source(source: bytes | str, path: str) -> tuple[str, ast.Module]:
    """Decode and parse one file of JAX's source (or tests): its text and its module.

    Raises:
        SourceParseError: the file is not valid Python for this interpreter.
    """
    if len(source) > MAX_SOURCE_BYTES:
        raise SourceParseError(path, None, f"{len(source):,} bytes, more than the {MAX_SOURCE_BYTES:,} a source "
                                           "file is read up to (JAX_ERRORS_MAX_SOURCE_BYTES)")
    text = decode_source(source, path) if isinstance(source, bytes) else source
    try:
        return text, ast.parse(text, filename=path)
    except (SyntaxError, ValueError) as error:
        reason = getattr(error, "msg", None) or str(error)
        raise SourceParseError(path, getattr(error, "lineno", None), reason) from error
    except (RecursionError, MemoryError) as error:  # the parser's own stack: `not not not ...` 10,000 deep
        raise SourceParseError(path, None, f"too deeply nested to parse ({type(error).__name__})") from error


def decode_source(source: bytes, path: str) -> str:
    """A file's text, decoded as Python decodes a module: UTF-8, unless a coding line says otherwise.

    Raises:
        SourceParseError: the bytes are not of that encoding (Python would not import the file), or
            the coding line names an encoding Python does not know.
    """
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(source).readline)
    except SyntaxError as error:
        if "unknown encoding" in str(error):
            raise SourceParseError(path, None, str(error)) from error
        encoding = "utf-8"  # its first two lines are not UTF-8: say which byte below
    try:
        return source.decode(encoding)
    except UnicodeDecodeError as error:
        line = source.count(b"\n", 0, error.start) + 1
        raise SourceParseError(path, line, f"not {encoding} text: byte 0x{source[error.start]:02x} "
                                           "cannot be decoded") from error


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
