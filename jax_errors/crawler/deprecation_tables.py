"""The names a module has removed and still words an error for: its `_deprecations` table.

A JAX module that removes a public name keeps it in a table, read by the module's `__getattr__`
(`jax._src.deprecations.deprecation_getattr`):

    _deprecations = {
        "tree_map": ("jax.tree_map was removed in JAX v0.6.0: use jax.tree.map ...", None),
    }
    __getattr__ = _deprecation_getattr(__name__, _deprecations)

A name whose second item is a function still works and warns; one whose second item is `None`
raises `AttributeError(message)`. That one `raise` in `deprecations.py` words every such message,
and its own template is `{message}`: the words are the table's. Each entry of `None` is read here
as an error of its own, raised at the entry, so that `AttributeError: jax.tree_map was removed ...`
has a card that names the attribute, the release that removed it and what to use instead.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

TABLE_NAME = "_deprecations"
# The function a module hands its table to; imported under this name or with a leading underscore.
READER_NAME = "deprecation_getattr"
GETATTR = "__getattr__"


@dataclass(frozen=True)
class RemovedName:
    """One entry of a deprecation table that raises: the attribute and the expression of its message."""

    name: str
    message: ast.expr
    entry: ast.stmt  # spans the entry's lines, from its key to its value's end


def removed_names(tree: ast.Module, table: ast.Assign | ast.AnnAssign) -> list[RemovedName]:
    """The entries of `table` that raise, when it is the module's deprecation table: a module-level
    `_deprecations = {...}` (annotated or not) the module hands to `deprecation_getattr`. Entries whose
    message is not a string the source spells are read too: the crawl's resolver makes what it can of
    them."""
    return [RemovedName(key.value, value.elts[0], ast.Expr(
                value=value, lineno=key.lineno, col_offset=key.col_offset, end_lineno=value.end_lineno,
                end_col_offset=value.end_col_offset))
            for key, value in _entries(tree, table) if _raises(value)]


def table_entries(tree: ast.Module, table: ast.Assign | ast.AnnAssign) -> dict[str, tuple[str | None, bool]]:
    """Every entry of `table`, when it is the module's deprecation table: {name: (its message, when the source spells
    it as one string; whether reading the name raises)}. A name whose entry warns still works (`jax.random.PRNGKeyArray`
    did so from jax 0.4.16 to 0.4.23); one whose entry raises is gone (`removed_names`)."""
    found = {}
    for key, value in _entries(tree, table):
        message = value.elts[0]
        text = message.value if isinstance(message, ast.Constant) and isinstance(message.value, str) else None
        found[key.value] = (text, _raises(value))
    return found


def _entries(tree: ast.Module, table: ast.Assign | ast.AnnAssign) -> list[tuple[ast.Constant, ast.Tuple]]:
    """The entries of `table`, when it is the module's deprecation table: (the name, its (message, function) pair)."""
    if not _is_table(table) or not _read_by_getattr(tree):
        return []
    return [(key, value) for key, value in zip(table.value.keys, table.value.values)  # type: ignore[union-attr]
            if isinstance(key, ast.Constant) and isinstance(key.value, str) and isinstance(value, ast.Tuple)
            and len(value.elts) == 2]


def _raises(value: ast.Tuple) -> bool:
    """Whether an entry raises: its function is `None`."""
    return isinstance(value.elts[1], ast.Constant) and value.elts[1].value is None


def reads_table(call: ast.expr) -> bool:
    """Whether an expression calls `deprecation_getattr` (under any alias ending so): what a module's `__getattr__`
    made of its table is."""
    if not isinstance(call, ast.Call):
        return False
    func = call.func
    called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
    return called.lstrip("_") == READER_NAME


def _is_table(node: ast.Assign | ast.AnnAssign) -> bool:
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    return (len(targets) == 1 and isinstance(targets[0], ast.Name) and targets[0].id == TABLE_NAME
            and isinstance(node.value, ast.Dict))


def _read_by_getattr(tree: ast.Module) -> bool:
    """Whether the module calls `deprecation_getattr(..., _deprecations)` (under any alias ending so; the table
    passed by position or by keyword)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and any(isinstance(a, ast.Name) and a.id == TABLE_NAME
                                              for a in (*node.args, *(k.value for k in node.keywords))):
            if reads_table(node):
                return True
    return False


def getattr_qualname(name: str) -> str:
    """The function a removed name's error is raised in, as the catalogue names it: the module's `__getattr__`, called
    with the name (`__getattr__('tree_map')`). No function of Python's is named so: the name is the check's own."""
    return f"{GETATTR}({name!r})"


def is_removed_name(qualname: str) -> bool:
    """Whether a raise's function (`getattr_qualname`) says it is a removed name's."""
    return qualname.startswith(f"{GETATTR}(")
