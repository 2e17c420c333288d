"""What the names of one function were bound to before a statement: the layer under the visitors.

A message is often built away from its `raise`: assigned, extended with `+=`, appended to a list.
`FunctionBody` indexes one function's own statements (not those of nested functions and classes)
so those bindings can be found, and tells whether a binding always runs before the raise or only
on some paths (another branch, a loop).
"""

from __future__ import annotations

import ast
from bisect import bisect_left
from functools import cached_property

from jax_errors.crawler.statements import block_paths, iter_statements

_LOOPS = (ast.For, ast.AsyncFor, ast.While)
LIST_METHODS = frozenset({"append", "extend"})


class FunctionBody:
    """The statements of one function (or a module's top level), indexed for finding bindings."""

    def __init__(self, node: ast.AST) -> None:
        self.node = node
        # What resolvers found in this body, by question: `m += m` twenty times would otherwise
        # resolve `m` 2**20 times.
        self.memo: dict[tuple, object] = {}
        self._list_updates: dict[str, tuple[list[ast.stmt], list[int]]] = {}

    @cached_property
    def statements(self) -> list[ast.stmt]:
        return list(iter_statements(self.node, into_scopes=False))

    @cached_property
    def _paths(self) -> dict[int, tuple[tuple[int, str], ...]]:
        return block_paths(self.node)

    @cached_property
    def _loops(self) -> frozenset[int]:
        return frozenset(id(s) for s in self.statements if isinstance(s, _LOOPS))

    def assignments(self, name: str, before: int | None = None) -> list[ast.stmt]:
        """Statements that bind `name` (`=`, `+=`, annotated) before line `before` (anywhere if None), in source order."""
        bindings = self._bindings.get(name, [])
        return bindings[:self._count_before(name, before)]

    def _count_before(self, name: str, before: int | None) -> int:
        # A bisection, not a scan: a function that rebinds one name at each of its raises would
        # otherwise cost time quadratic in its length.
        lines = self._binding_lines.get(name, [])
        return len(lines) if before is None else bisect_left(lines, before)

    @cached_property
    def _bindings(self) -> dict[str, list[ast.stmt]]:
        """Each name's binding statements, in source order."""
        found: dict[str, list[ast.stmt]] = {}
        for stmt in self.statements:
            for name in _bound_names(stmt):
                found.setdefault(name, []).append(stmt)
        for statements in found.values():
            statements.sort(key=_position)
        return found

    @cached_property
    def _binding_lines(self) -> dict[str, list[int]]:
        return {name: [stmt.lineno for stmt in statements] for name, statements in self._bindings.items()}

    def last_assignment(self, name: str, before: int | None = None) -> ast.expr | None:
        """The value `name` was last plainly assigned before line `before` (anywhere if None)."""
        for stmt in reversed(self.assignments(name, before)):
            if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
                return stmt.value
        return None

    def list_updates(self, name: str, after: int, before: int) -> list[ast.stmt]:
        """`name.append(x)`, `name.extend(xs)` and `name += [...]` between two lines, in source order."""
        if name not in self._list_updates:
            found = sorted((stmt for stmt in self.statements if _updates_list(stmt, name)), key=_position)
            self._list_updates[name] = found, [stmt.lineno for stmt in found]
        found, lines = self._list_updates[name]
        return found[bisect_left(lines, after):bisect_left(lines, before)]

    @cached_property
    def parameters(self) -> frozenset[str]:
        args = getattr(self.node, "args", None)
        if not isinstance(args, ast.arguments):
            return frozenset()
        every = (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg)
        return frozenset(a.arg for a in every if a is not None)

    def is_local(self, name: str, before: int) -> bool:
        """Whether `name` is a parameter, or was assigned before line `before`: it shadows the module's."""
        return name in self.parameters or self._count_before(name, before) > 0

    def nested_function(self, name: str, before: int) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        """A function defined by this body's own statements under `name`, last before line `before`."""
        found = [s for s in self._nested_functions.get(name, ()) if s.lineno < before]
        return found[-1] if found else None

    @cached_property
    def _nested_functions(self) -> dict[str, list[ast.FunctionDef | ast.AsyncFunctionDef]]:
        found: dict[str, list[ast.FunctionDef | ast.AsyncFunctionDef]] = {}
        for stmt in self.statements:
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found.setdefault(stmt.name, []).append(stmt)
        return found

    def bound_by_except(self, name: str) -> bool:
        return name in self._except_names

    @cached_property
    def _except_names(self) -> frozenset[str]:
        return frozenset(h.name for n in self.statements if isinstance(n, ast.Try | ast.TryStar)
                         for h in n.handlers if h.name)

    def runs_with(self, stmt: ast.stmt, anchor: ast.stmt | None) -> bool:
        """Whether `stmt` always runs before `anchor` does: it is in the same block or an outer one."""
        if anchor is None:
            return True
        mine, theirs = self._paths.get(id(stmt), ()), self._paths.get(id(anchor), ())
        return theirs[:len(mine)] == mine

    def repeats(self, stmt: ast.stmt, anchor: ast.stmt | None) -> bool:
        """Whether `stmt` sits in a loop that does not also hold `anchor`: it may run many times before it."""
        mine = self._paths.get(id(stmt), ())
        theirs = self._paths.get(id(anchor), ()) if anchor is not None else ()
        shared = 0
        while shared < min(len(mine), len(theirs)) and mine[shared] == theirs[shared]:
            shared += 1
        return any(block in self._loops and field == "body" for block, field in mine[shared:])


def _bound_names(stmt: ast.stmt) -> list[str]:
    """The bare names `stmt` binds with `=`, `+=` or an annotated assignment with a value."""
    if isinstance(stmt, ast.Assign):
        return [t.id for t in stmt.targets if isinstance(t, ast.Name)]
    if isinstance(stmt, (ast.AugAssign, ast.AnnAssign)) and isinstance(stmt.target, ast.Name) and stmt.value is not None:
        return [stmt.target.id]
    return []


def _updates_list(stmt: ast.stmt, name: str) -> bool:
    if isinstance(stmt, ast.AugAssign):
        return isinstance(stmt.target, ast.Name) and stmt.target.id == name and isinstance(stmt.op, ast.Add) \
            and isinstance(stmt.value, (ast.List, ast.Tuple))
    call = stmt.value if isinstance(stmt, ast.Expr) else None
    return isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr in LIST_METHODS \
        and isinstance(call.func.value, ast.Name) and call.func.value.id == name and len(call.args) == 1


def _position(stmt: ast.stmt) -> tuple[int, int]:
    return stmt.lineno, stmt.col_offset
