"""A case's `trigger()` or `fixed()` as a card shows it: a snippet that runs as it stands.

The snippet holds the imports and the module-level helpers the function uses (with their
decorators), then the function's body as top-level code, its own decorators and comments kept, a
final `return x` shown as the expression `x`. A body that returns elsewhere stays a function, with
the call after it. `tests/test_shown_examples.py` runs every snippet as shown.
"""

from __future__ import annotations

import ast
import textwrap

# A case's module-level names that are about the case, not code its functions use.
CASE_FIELDS = frozenset({"EXPECTED", "ERROR_ID", "TAGS", "MESSAGE_CONTAINS", "FORMER_ERROR_IDS"})


def shown_snippet(source: str, tree: ast.Module, function: ast.FunctionDef) -> str:
    """The complete, runnable text of `function` (a case's `trigger` or `fixed`) as a card shows it."""
    lines = source.splitlines()
    code = _as_top_level(lines, function) or _with_call(lines, function)
    helpers = _helpers(tree, function)
    used = _names(function) | {name for node in helpers for name in _names(node)}
    imports = [text for node in tree.body if (text := _import_text(node, used))]
    parts = ["\n".join(imports), *(_segment(lines, node) for node in helpers), code]
    return "\n\n".join(part for part in parts if part).strip("\n")


def _as_top_level(lines: list[str], function: ast.FunctionDef) -> str | None:
    """The body as top-level code, or None when a `return` other than a final `return x` needs the function."""
    body = function.body
    if body[0].lineno == function.lineno or any(
            isinstance(node, ast.Return) for stmt in body[:-1] for node in _own_nodes(stmt)):
        return None
    last = body[-1]
    if isinstance(last, ast.Return) and last.value is None:
        return None
    if not isinstance(last, ast.Return) and any(isinstance(node, ast.Return) for node in _own_nodes(last)):
        return None
    start = _start(body[0]) - 1
    while start - 1 > function.lineno - 1 and lines[start - 1].strip().startswith("#"):
        start -= 1  # the comments just above the first statement
    text = lines[start:body[-1].end_lineno]
    if isinstance(last, ast.Return):
        index = last.lineno - 1 - start
        text[index] = text[index].replace("return ", "", 1)
    return textwrap.dedent("\n".join(text)).strip("\n")


def _with_call(lines: list[str], function: ast.FunctionDef) -> str:
    return _segment(lines, function) + f"\n\n\n{function.name}()"


def _helpers(tree: ast.Module, function: ast.FunctionDef) -> list[ast.stmt]:
    """Module-level definitions the function uses, directly or through one another, in file order."""
    defined: dict[str, ast.stmt] = {}
    for node in tree.body:
        for name in _defines(node):
            if name not in CASE_FIELDS and name not in ("trigger", "fixed"):
                defined[name] = node
    wanted: list[ast.stmt] = []
    frontier = [function]
    while frontier:
        node = frontier.pop()
        for name in _names(node):
            helper = defined.get(name)
            if helper is not None and helper not in wanted:
                wanted.append(helper)
                frontier.append(helper)
    return sorted(wanted, key=lambda node: node.lineno)


def _defines(node: ast.stmt) -> list[str]:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, ast.Assign):
        return [t.id for t in node.targets if isinstance(t, ast.Name)]
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return [node.target.id]
    return []


def _import_text(node: ast.stmt, used: set[str]) -> str | None:
    """An import statement keeping only the names the snippet uses; None when it uses none."""
    if not isinstance(node, (ast.Import, ast.ImportFrom)):
        return None
    kept = [alias for alias in node.names if (alias.asname or alias.name.partition(".")[0]) in used]
    if not kept:
        return None
    if isinstance(node, ast.Import):
        return ast.unparse(ast.Import(names=kept))
    return ast.unparse(ast.ImportFrom(module=node.module, names=kept, level=node.level))


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _own_nodes(node: ast.AST):
    """A statement's nodes outside the functions and classes it defines (their returns are theirs)."""
    yield node
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
        return
    for child in ast.iter_child_nodes(node):
        yield from _own_nodes(child)


def _start(node: ast.stmt) -> int:
    """A statement's first line: its first decorator's, for a decorated definition."""
    decorators = getattr(node, "decorator_list", [])
    return min([node.lineno, *(d.lineno for d in decorators)])


def _segment(lines: list[str], node: ast.stmt) -> str:
    return textwrap.dedent("\n".join(lines[_start(node) - 1:node.end_lineno])).strip("\n")
