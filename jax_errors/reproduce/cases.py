"""Reproduction cases: one file per case in `cases/`, read with `ast` and never imported here.

A case file has a module docstring (its summary on the first line), the constants `EXPECTED`,
`TAGS`, `MESSAGE_CONTAINS` and optionally `ERROR_ID`, and two functions without parameters:
`trigger()`, which raises the catalogued error, and `fixed()`, which runs clean. The module level
holds only imports and definitions, so loading a case runs nothing.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from jax_errors.exceptions import CaseError
from jax_errors.reproduce.snippets import shown_snippet

REQUIRED = ("EXPECTED", "TAGS", "MESSAGE_CONTAINS")
FUNCTIONS = ("trigger", "fixed")
# Statements that only import or define; anything else would run when the case is loaded.
_DEFINITIONS = (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef,
                ast.Assign, ast.AnnAssign)


@dataclass(frozen=True)
class Case:
    """One reproduction case, as its file states it."""

    name: str
    path: Path
    summary: str
    description: str
    expected: str
    tags: tuple[str, ...]
    message_contains: str
    error_id: str | None
    trigger_source: str  # trigger() as a card shows it: a snippet that runs as it stands (see `snippets`)
    fixed_source: str
    # FORMER_ERROR_IDS: the ids the same error had at older releases; a run there attributed to one reproduces.
    former_error_ids: tuple[str, ...] = ()

    @property
    def error_ids(self) -> tuple[str, ...]:
        return (self.error_id, *self.former_error_ids) if self.error_id else ()


def load_cases(folder: str | Path, names: Iterable[str] | None = None, *,
               skipped: list[CaseError] | None = None) -> list[Case]:
    """The cases of `folder` (every `*.py` not starting with `_`), by name; or only `names`, in order.

    Parameters:
        skipped: where given, malformed case files are added to it and left out instead of raising.
    Raises:
        CaseError: a case file is malformed (unless `skipped` is given), or a named case does not exist.
    """
    folder = Path(folder)
    if names is None:
        paths = sorted(p for p in folder.glob("*.py") if not p.name.startswith("_"))
    else:
        paths = [folder / f"{name.removesuffix('.py')}.py" for name in names]
    cases = []
    for path in paths:
        try:
            cases.append(load_case(path))
        except CaseError as error:
            if skipped is None or names is not None:
                raise
            skipped.append(error)
    return cases


def load_case(path: str | Path) -> Case:
    """Read one case file.

    Raises:
        CaseError: the file is missing, does not parse, or breaks the case format.
    """
    path = Path(path)
    try:
        source = path.read_text(encoding="utf-8")
    except OSError as error:
        raise CaseError(str(path), f"cannot read it: {error.strerror or error}") from error
    except UnicodeDecodeError as error:
        raise CaseError(str(path), f"is not UTF-8 (byte {error.start})") from error
    try:
        tree = ast.parse(source, filename=str(path))
    except SyntaxError as error:
        raise CaseError(str(path), f"line {error.lineno}: {error.msg}") from error
    return _case_from_tree(path, source, tree)


def _case_from_tree(path: Path, source: str, tree: ast.Module) -> Case:
    docstring = ast.get_docstring(tree)
    if not docstring or not docstring.strip():
        raise CaseError(str(path), "no module docstring")
    _check_module_level(path, tree)
    constants = _constants(path, tree)
    functions = _functions(path, tree)
    return Case(
        name=path.stem,
        path=path,
        summary=docstring.strip().splitlines()[0].strip(),
        description=docstring.strip(),
        expected=_string(path, constants, "EXPECTED"),
        tags=_tags(path, constants),
        message_contains=_string(path, constants, "MESSAGE_CONTAINS"),
        error_id=_string(path, constants, "ERROR_ID") if "ERROR_ID" in constants else None,
        trigger_source=shown_snippet(source, tree, functions["trigger"]),
        fixed_source=shown_snippet(source, tree, functions["fixed"]),
        former_error_ids=_former_ids(path, constants),
    )


def _check_module_level(path: Path, tree: ast.Module) -> None:
    for index, node in enumerate(tree.body):
        is_docstring = index == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)
        if not is_docstring and not isinstance(node, _DEFINITIONS):
            raise CaseError(str(path), f"line {node.lineno}: only imports and definitions may run at module level")


def _constants(path: Path, tree: ast.Module) -> dict[str, object]:
    """The module's literal assignments to upper-case names."""
    values: dict[str, object] = {}
    for node in tree.body:
        target = node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else (
            node.target if isinstance(node, ast.AnnAssign) else None)
        if not isinstance(target, ast.Name) or not target.id.isupper() or node.value is None:
            continue
        try:
            values[target.id] = ast.literal_eval(node.value)
        except ValueError as error:
            if target.id in REQUIRED or target.id == "ERROR_ID":
                raise CaseError(str(path), f"{target.id} must be a literal") from error
    for name in REQUIRED:
        if name not in values:
            raise CaseError(str(path), f"no {name}")
    return values


def _string(path: Path, constants: dict[str, object], name: str) -> str:
    value = constants[name]
    if not isinstance(value, str) or not value.strip():
        raise CaseError(str(path), f"{name} must be a non-empty string")
    return value


def _former_ids(path: Path, constants: dict[str, object]) -> tuple[str, ...]:
    ids = constants.get("FORMER_ERROR_IDS", [])
    if not isinstance(ids, (list, tuple)) or not all(isinstance(i, str) and i for i in ids):
        raise CaseError(str(path), "FORMER_ERROR_IDS must be a list of error ids")
    if ids and "ERROR_ID" not in constants:
        raise CaseError(str(path), "FORMER_ERROR_IDS needs an ERROR_ID")
    return tuple(ids)


def _tags(path: Path, constants: dict[str, object]) -> tuple[str, ...]:
    tags = constants["TAGS"]
    if not isinstance(tags, (list, tuple)) or not all(isinstance(tag, str) and tag for tag in tags):
        raise CaseError(str(path), "TAGS must be a list of strings")
    return tuple(tags)


def _functions(path: Path, tree: ast.Module) -> dict[str, ast.FunctionDef]:
    found = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
    for name in FUNCTIONS:
        node = found.get(name)
        if node is None:
            raise CaseError(str(path), f"no function {name}()")
        args = node.args
        if args.posonlyargs or args.args or args.kwonlyargs or args.vararg or args.kwarg:
            raise CaseError(str(path), f"{name}() must take no arguments")
    return found
