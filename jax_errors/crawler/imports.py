"""Resolve the names a module uses to the dotted paths they were imported from."""

from __future__ import annotations

import ast
import builtins

from jax_errors.crawler.statements import iter_statements

BUILTIN_EXCEPTIONS = frozenset(
    name for name, value in vars(builtins).items()
    if isinstance(value, type) and issubclass(value, BaseException)
)


def module_name(path: str) -> str:
    """`jax/_src/core.py` -> `jax._src.core`; `jax/lax/__init__.py` -> `jax.lax`."""
    parts = path.removesuffix(".py").split("/")
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def module_imports(tree: ast.Module, path: str) -> ImportTable:
    """The import table of the module at `path` (a package's `__init__.py` imports relative to itself)."""
    return ImportTable(tree, module=module_name(path), is_package=path.endswith("__init__.py"))


class ImportTable:
    """What each name bound by an import or a class statement in one module refers to."""

    def __init__(self, tree: ast.Module, *, module: str, is_package: bool) -> None:
        self.module = module
        self.package = module if is_package else module.rpartition(".")[0]
        self.names: dict[str, str] = {}
        # Imports inside functions are common in JAX (to break cycles); one table serves them all.
        for node in iter_statements(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        self.names[alias.asname] = alias.name
                    else:
                        head = alias.name.partition(".")[0]
                        self.names[head] = head
            elif isinstance(node, ast.ImportFrom):
                base = self.absolute(node.module, node.level)
                for alias in node.names:
                    if alias.name != "*":
                        self.names[alias.asname or alias.name] = f"{base}.{alias.name}" if base else alias.name
        for node in tree.body:
            if isinstance(node, ast.ClassDef):
                self.names.setdefault(node.name, f"{module}.{node.name}")

    def absolute(self, name: str | None, level: int) -> str:
        """The module an import names, relative ones (`level` dots) made absolute."""
        if level == 0:
            return name or ""
        base = self.package
        for _ in range(level - 1):
            base = base.rpartition(".")[0]
        return f"{base}.{name}" if name else base

    def resolve(self, node: ast.expr) -> str | None:
        """The dotted path of a class reference like `ValueError` or `core.ConcretizationTypeError`."""
        if isinstance(node, ast.Name):
            if node.id in self.names:
                return self.names[node.id]
            return node.id if node.id in BUILTIN_EXCEPTIONS else None
        if isinstance(node, ast.Attribute):
            head = self.resolve_module(node.value)
            return f"{head}.{node.attr}" if head else None
        return None

    def resolve_module(self, node: ast.expr) -> str | None:
        if isinstance(node, ast.Name):
            return self.names.get(node.id)
        if isinstance(node, ast.Attribute):
            head = self.resolve_module(node.value)
            return f"{head}.{node.attr}" if head else None
        return None


def dotted_name(node: ast.expr) -> str | None:
    """`a.b.c` for a chain of attributes on a name, else None."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))
