"""What a module's attributes are when it has run: the names its top level binds, and what else answers for names.

Part of a file's call summary (`calls.summarize_tree`, key `namespace`), read by `db.name_history` to tell
in which releases a module had a name. A name counts as bound where the module's own statements bind it
when they run: imports, `def`s and classes, assignments (to tuples too), `for` and `with` targets, under
`if`, `try`, loops and `with`; not under `if TYPE_CHECKING:`, which never runs (jax's `__init__.py`
binds `device_put_replicated` there for type checkers while its deprecation table makes reading it
raise). An unconditional top-level `del` unbinds (jax's `__init__.py` imports `xla` to load it, then
deletes the name); a name a function declares `global` may be bound when it runs, so it counts.

The rest is told so that no one reads more into the names than they hold: the modules it star-imports,
how a top-level `__getattr__` answers for names it does not bind, its deprecation table's entries, and
whether it fills its namespace by other means (`globals()[name] = ...`, `sys.modules[...] = ...`).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Any

from jax_errors.crawler.deprecation_tables import GETATTR, reads_table, table_entries
from jax_errors.crawler.imports import ImportTable, dotted_name

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_NAMESPACE_CALLS = frozenset({"globals", "vars"})
_SYS_MODULES = frozenset({"sys.modules", "_sys.modules"})


def module_namespace(tree: ast.Module, imports: ImportTable) -> dict[str, Any]:
    """The module's namespace as its summary keeps it: `names` (sorted), `star` (modules star-imported, absolute),
    `getattr` ("table": made by `deprecation_getattr` from its deprecation table; "other"; or None), `deprecated`
    ({name: [message or None, raises]}, `deprecation_tables.table_entries`) and `filled` (whether it sets names by
    other means than binding them)."""
    names: set[str] = set()
    star: set[str] = set()
    getattr_kind, deprecated = None, {}
    unconditional = {id(stmt) for stmt in tree.body}
    for stmt in _run_statements(tree.body):
        if isinstance(stmt, ast.Delete) and id(stmt) in unconditional:
            names -= {target.id for target in stmt.targets if isinstance(target, ast.Name)}
        bound = _bound(stmt)
        names |= bound
        if isinstance(stmt, ast.ImportFrom) and any(alias.name == "*" for alias in stmt.names):
            star.add(imports.absolute(stmt.module, stmt.level))
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) and stmt.name == GETATTR:
            getattr_kind = "other"
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None:
            if GETATTR in bound:
                getattr_kind = "table" if reads_table(stmt.value) and getattr_kind != "other" else "other"
            deprecated.update({name: list(entry) for name, entry in table_entries(tree, stmt).items()})
    names |= {name for node in ast.walk(tree) if isinstance(node, ast.Global) for name in node.names}
    return {"names": sorted(names), "star": sorted(star), "getattr": getattr_kind,
            "deprecated": dict(sorted(deprecated.items())), "filled": fills_itself(tree)}


def _run_statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The module's own statements in order, also those under `if`, `try`, loops and `with`; of `if TYPE_CHECKING:`
    only its `else`."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, ast.If):
            yield from _run_statements(stmt.orelse if _is_type_checking(stmt.test) else stmt.body + stmt.orelse)
        elif isinstance(stmt, (ast.Try, ast.TryStar)):
            yield from _run_statements(stmt.body + stmt.orelse + stmt.finalbody)
            for handler in stmt.handlers:
                yield from _run_statements(handler.body)
        elif isinstance(stmt, (ast.For, ast.AsyncFor, ast.While)):
            yield from _run_statements(stmt.body + stmt.orelse)
        elif isinstance(stmt, (ast.With, ast.AsyncWith)):
            yield from _run_statements(stmt.body)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING"
            or isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _bound(stmt: ast.stmt) -> set[str]:
    """The names one statement binds in its own scope (not those of the statements under it)."""
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        return {alias.asname or alias.name.partition(".")[0] for alias in stmt.names if alias.name != "*"}
    if isinstance(stmt, _DEFS):
        return {stmt.name}
    targets: list[ast.expr] = []
    if isinstance(stmt, ast.Assign):
        targets = stmt.targets
    elif isinstance(stmt, (ast.AnnAssign, ast.AugAssign)) and (stmt.value is not None or
                                                                isinstance(stmt, ast.AugAssign)):
        targets = [stmt.target]
    elif isinstance(stmt, (ast.For, ast.AsyncFor)):
        targets = [stmt.target]
    elif isinstance(stmt, (ast.With, ast.AsyncWith)):
        targets = [item.optional_vars for item in stmt.items if item.optional_vars is not None]
    return {name.id for target in targets for name in ast.walk(target)
            if isinstance(name, ast.Name) and isinstance(name.ctx, ast.Store)}


def fills_itself(tree: ast.Module) -> bool:
    """Whether the module sets names by other means than binding them: `globals()[name] = ...`,
    `globals().update(...)`, `sys.modules[...] = ...` or `setattr(sys.modules[...], ...)` (jax.numpy gave NumPy's
    functions it lacked stubs so until 0.4.2; jax 0.4.33 made `jax.experimental.array_api` jax.numpy itself)."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Subscript) and (_calls_namespace(t.value) or _is_sys_modules(t.value))
                   for t in targets):
                return True
        elif isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in ("update", "setdefault") and _calls_namespace(func.value):
                return True
            if (isinstance(func, ast.Name) and func.id == "setattr" and node.args
                    and isinstance(node.args[0], ast.Subscript) and _is_sys_modules(node.args[0].value)):
                return True
    return False


def _calls_namespace(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _NAMESPACE_CALLS


def _is_sys_modules(node: ast.expr) -> bool:
    return dotted_name(node) in _SYS_MODULES
