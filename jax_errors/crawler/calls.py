"""What each function of one file refers to: the per-blob half of the call graph (`callgraph.py` joins them).

A summary is plain JSON, stored per blob and path (relative imports make a module's path part of
what its names mean), so a snapshot's graph is built from stored summaries without parsing again.
References are kept in one of five spellings:

- `jax._src.core.bind`: a dotted name, resolved through the module's imports or its own top level;
- `@outer.<locals>.inner`: a function of this module, by qualified name (a nested def);
- `~Class:attr`: `self.attr`/`cls.attr` inside a method of `Class` (looked up through its bases);
- `^Class:attr`: `super().attr` inside `Class` (looked up in its bases only);
- `%made:attr`: `v.attr` where `v = made(...)`: a method of the class `made` names (or of the class
  whose method `made` is: `NDIndexer.from_raw(...)`), when it names one.

The statements come from the syntax tree the raise-site extractor parsed; the names a function's
own lines use are read with one regular expression, comments, strings and its docstring left out
(walking every expression node costs about a third of the parse; reading the text, a twentieth).
So, conservatively, a function that names another without calling it (a callback, `partial(f,
...)`, a decorator) counts as calling it. Only names that can land in the jax package are kept.

Two more tables serve the words callers pass to a helper that raises with them
(`def _check(what, ...): raise TypeError(f"{what} must ...")`, called `_check("body_fun output", ...)`):
`params`, the parameters and kind of each function that raises or passes its own parameters on, and
`passes`, each call of a jax function that passes literal words (their templates) or the caller's
own parameters (their names) (`callgraph.passed_words` joins the two).

`namespace` is what the module's attributes are when it has run (`namespaces.module_namespace`), which
`db.name_history` reads to tell when a module had a name.
"""

from __future__ import annotations

import ast
import re
from typing import Any

from jax_errors.crawler.imports import ImportTable, dotted_name, module_imports, module_name
from jax_errors.crawler.namespaces import module_namespace
from jax_errors.crawler.sources import PACKAGE_DIR
from jax_errors.crawler.statements import parse_source
from jax_errors.crawler.template_builder import build_template

# Bump when summaries change: stored ones of another version are made again.
CALLS_VERSION = "5"
# JAX names its primitives `foo_p`; a statement naming one and functions (`foo_p.def_impl(f)`,
# `mlir.register_lowering(foo_p, f)`, `foo_p = standard_primitive(shape_rule, ...)`) registers them as its rules.
PRIMITIVE_SUFFIX = "_p"
BIND_METHODS = frozenset({"bind", "bind_with_trace"})
# `jax.Array`'s methods are installed with setattr from dicts of `array_methods.py`: name -> function.
ARRAY_METHOD_TABLES = {"_array_operators": "jax.Array.__{}__", "_array_methods": "jax.Array.{}",
                       "_array_properties": "jax.Array.{}"}
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_COMPOUND = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.Try, ast.TryStar, ast.With, ast.AsyncWith, ast.Match,
             ast.ExceptHandler, ast.match_case)
_SIMPLE = (ast.Expr, ast.Assign, ast.AnnAssign, ast.AugAssign)
# Comments and string literals are skipped; `super().name` and dotted names not after a dot are kept.
# `findall` gives (super, name) pairs, both empty for a skipped comment or string.
_WORDS = re.compile(r"""
    \#[^\n]*
  | [rRbBuUfF]{0,2}(?:\"\"\"[\s\S]*?\"\"\"|'''[\s\S]*?'''|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')
  | super\(\s*\)\.(\w+)
  | (?<![\w.])([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)
""", re.VERBOSE)


# `name = Callee(...)` (or `name: T = ...`) at the start of a line: what made a local value.
_MADE = re.compile(r"^[ \t]*(\w+)[ \t]*(?::[^=\n]*)?=[ \t]*([A-Za-z_][\w.]*)\(", re.MULTILINE)


def summarize_calls(source: bytes | str, path: str) -> dict[str, Any]:
    """The call summary of one file (see the module docstring).

    Raises:
        SourceParseError: the file is not valid Python for this interpreter.
    """
    text, tree = parse_source(source, path)
    return summarize_tree(tree, path, text.splitlines())


def summarize_tree(tree: ast.Module, path: str, lines: list[str], imports: ImportTable | None = None) -> dict[str, Any]:
    """The call summary of a parsed file: its top-level bindings, `__all__`, functions and primitive rules."""
    module = module_name(path)
    imports = imports or module_imports(tree, path)
    collector = _Collector(module, imports, tree, lines)
    collector.scope(tree, "", [], None)
    return {
        "bindings": _bindings(tree, module, imports),
        "all": _dunder_all(tree),
        "defs": collector.defs,
        "rules": collector.rules(tree),
        "installed": collector.installed(tree),
        "params": collector.params,
        "passes": collector.passes,
        "namespace": module_namespace(tree, imports),
    }


def _bindings(tree: ast.Module, module: str, imports: ImportTable) -> dict[str, str]:
    """Each top-level name: the dotted path an import or a plain alias binds it to, or "" when defined here."""
    found: dict[str, str] = {}
    for stmt in _top_level(tree.body):
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            for alias in stmt.names:
                bound = alias.asname or alias.name.partition(".")[0]
                if alias.name != "*" and bound in imports.names:
                    found[bound] = imports.names[bound]
        elif isinstance(stmt, _SCOPES):
            found[stmt.name] = ""
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None:
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            target = dotted_name(_partial_of(stmt.value))
            for name in (t.id for t in targets if isinstance(t, ast.Name)):
                found[name] = _alias_of(target, found, module) if target else ""
    return found


def _partial_of(value: ast.expr) -> ast.expr:
    """`partial(naryop, input_dtype)` stands for `naryop`: calling it calls that."""
    if isinstance(value, ast.Call) and value.args and dotted_name(value.func) in ("partial", "functools.partial"):
        return value.args[0]
    return value


def _top_level(body: list[ast.stmt]):
    """The module's own statements, also those under `if`/`try` (`if TYPE_CHECKING:`, optional imports)."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, (ast.If, ast.Try)):
            yield from _top_level(stmt.body + stmt.orelse + getattr(stmt, "finalbody", []))
            for handler in getattr(stmt, "handlers", []):
                yield from _top_level(handler.body)


def _alias_of(target: str, bound: dict[str, str], module: str) -> str:
    head, _, rest = target.partition(".")
    if head not in bound:
        return ""
    base = bound[head] or f"{module}.{head}"
    return f"{base}.{rest}" if rest else base


def _dunder_all(tree: ast.Module) -> list[str] | None:
    names: list[str] | None = None
    for stmt in tree.body:
        target = stmt.targets[0] if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 else None
        if isinstance(stmt, ast.AugAssign):
            target = stmt.target
        if isinstance(target, ast.Name) and target.id == "__all__" and isinstance(stmt.value, (ast.List, ast.Tuple)):
            listed = [e.value for e in stmt.value.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
            names = (names or []) + listed if isinstance(stmt, ast.AugAssign) else listed
    return names


def body_scopes(node: ast.AST) -> list[ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef]:
    """The defs and classes directly inside `node` (also under its `if`/`for`/`try`/`with` blocks)."""
    found = []
    stack = list(reversed(node.body))
    while stack:
        stmt = stack.pop()
        if isinstance(stmt, _SCOPES):
            found.append(stmt)
        elif isinstance(stmt, _COMPOUND):
            for name in ("body", "orelse", "finalbody", "handlers", "cases"):
                stack.extend(reversed(getattr(stmt, name, ())))
    return found


class _Collector:
    """Walks the scopes, giving every function (and class) its references."""

    def __init__(self, module: str, imports: ImportTable, tree: ast.Module, lines: list[str]) -> None:
        self.module = module
        self.imports = imports
        self.lines = lines
        self.top = {s.name for s in tree.body if isinstance(s, _SCOPES)} | {
            t.id for s in _top_level(tree.body) if isinstance(s, (ast.Assign, ast.AnnAssign))
            for t in (s.targets if isinstance(s, ast.Assign) else [s.target]) if isinstance(t, ast.Name)}
        # qualname -> [kind, bases, raises, references]
        self.defs: dict[str, list[Any]] = {}
        # qualname of a function that raises or passes its own parameters on -> [positional parameters, keyword-only
        # parameters, kind]: "function", or of a method "method", "classmethod" or "staticmethod" (`_method_kind`)
        self.params: dict[str, list[list[str]]] = {}
        # qualname -> [[reference called, {argument: template parts}], ...]: words passed, a call a row; an
        # argument by its position ("0") or keyword
        self.passes: dict[str, list[list[Any]]] = {}

    def scope(self, node: ast.AST, qualname: str, visible: list[dict[str, str]], cls: str | None) -> None:
        """Record `node` (the module, a function or a class) and every scope nested in it."""
        children = body_scopes(node)
        nested = {c.name: _nested_qualname(qualname, node, c.name) for c in children}
        if isinstance(node, _FUNCTIONS):
            visible = visible + [nested]
            raises, refs = self._references(node, children, visible, cls)
            refs.update(f"@{q}" for q in nested.values())
            refs.discard(f"{self.module}.{qualname}")
            self.defs[qualname] = ["function", [], raises, sorted(refs)]
            passes = self._passes(node, visible, cls)
            if passes:
                self.passes[qualname] = passes
            if raises or any(isinstance(value, str) for _ref, arguments in passes for value in arguments.values()):
                arguments = node.args
                self.params[qualname] = [[a.arg for a in (*arguments.posonlyargs, *arguments.args)],
                                         [a.arg for a in arguments.kwonlyargs], _method_kind(node, cls)]
        elif isinstance(node, ast.ClassDef):
            # What a class body names runs on import, not when something calls the class.
            bases = {self._named(d, visible, None, ()) for b in node.bases if (d := dotted_name(b))}
            self.defs[qualname] = ["class", sorted(b for b in bases if b), False, []]
        for child in children:
            self.scope(child, nested[child.name], visible, qualname if isinstance(node, ast.ClassDef) else None)

    def _references(self, node: ast.FunctionDef | ast.AsyncFunctionDef, children: list[ast.AST],
                    visible: list[dict[str, str]], cls: str | None) -> tuple[bool, set[str]]:
        """Whether the function's own lines raise, and what they (and its decorators) name.

        Its docstring and nested scopes are left out.
        """
        first = min([d.lineno for d in node.decorator_list] + [node.lineno])
        skipped = [(c.lineno, c.end_lineno or c.lineno) for c in children]
        if node.body and _is_docstring(node.body[0]):
            skipped.append((node.body[0].lineno, node.body[0].end_lineno or node.body[0].lineno))
        text = "\n".join(self._lines(first, node.end_lineno or node.lineno, skipped))
        params = node.args.posonlyargs + node.args.args
        self_names = (params[0].arg,) if cls and params else ()
        found = set(_WORDS.findall(text))
        words = {word for _, word in found if word}
        if any(w.rpartition(".")[2] in BIND_METHODS for w in words):
            # `prim = a_p if cond else b_p; prim.bind(...)` binds whichever primitive it names.
            words.update([f"{w}.bind" for w in words if w.endswith(PRIMITIVE_SUFFIX)])
        refs = {f"^{cls}:{attr}" for attr, _ in found if attr and cls}
        refs.update(self._named(word, visible, cls, self_names) for word in words)
        typed = {a.arg: d for a in params + node.args.kwonlyargs if a.annotation and (d := dotted_name(a.annotation))}
        refs.update(self._instance_methods(text, words, typed, visible, cls, self_names))
        refs.discard(None)
        return "raise" in words, refs

    def _passes(self, node: ast.FunctionDef | ast.AsyncFunctionDef, visible: list[dict[str, str]],
                 cls: str | None) -> list[list[Any]]:
        """The function's own calls of jax functions (not of classes named like exceptions) that pass literal words
        (a string or an f-string with words) or its own parameters on (not after a line assigning them anew), each as
        [reference, {argument: passed}]: an argument by position ("0") or keyword, passed words as template parts, a
        parameter passed on by its name."""
        params = node.args.posonlyargs + node.args.args
        self_names = (params[0].arg,) if cls and params and _method_kind(node, cls) != "staticmethod" else ()
        calls, assigned = _own_calls(node)
        own = {a.arg for a in (*params, *node.args.kwonlyargs)} - set(self_names)
        found: list[list[Any]] = []
        for call in calls:
            dotted = dotted_name(call.func)
            if dotted is None or _EXCEPTION_NAME.search(dotted):
                continue
            head, _, rest = dotted.partition(".")
            if head in self_names and "." in rest:
                continue  # `self.helper.strip(...)`: a method of what `self.helper` holds, not `helper`
            arguments: list[tuple[int | str, ast.expr]] = list(enumerate(_before_starred(call.args)))
            arguments += [(k.arg, k.value) for k in call.keywords if k.arg]
            passed: dict[str, Any] = {}
            for key, value in arguments:
                passed_on = isinstance(value, ast.Name) and value.id in own
                if passed_on and assigned.get(value.id, call.lineno) >= call.lineno:  # not assigned anew before
                    passed[str(key)] = value.id
                elif _is_words(value) and (template := build_template(value)).has_words:
                    passed[str(key)] = [list(p) for p in template.parts]
            if passed and (ref := self._named(dotted, visible, cls, self_names)) is not None:
                found.append([ref, passed])
        return found

    def _instance_methods(self, text: str, words: set[str], typed: dict[str, str], visible: list[dict[str, str]],
                          cls: str | None, self_names: tuple[str, ...]) -> set[str | None]:
        """`idx = NDIndexer.from_raw(...)` (or a parameter `idx: NDIndexer`), then `idx.check()`: `%made:check`."""
        made = {var: self._named(callee, visible, cls, self_names) for var, callee in _MADE.findall(text)}
        for var, annotation in typed.items():
            made[var] = made.get(var) or self._named(annotation, visible, cls, self_names)
        return {f"%{made[head]}:{rest.partition('.')[0]}" for word in words
                for head, _, rest in [word.partition(".")] if rest and made.get(head)}

    def _lines(self, first: int, last: int, skipped: list[tuple[int, int]]) -> list[str]:
        keep = [True] * (last - first + 1)
        for start, end in skipped:
            for line in range(max(start, first), min(end, last) + 1):
                keep[line - first] = False
        return [self.lines[first - 1 + i] for i, kept in enumerate(keep) if kept and first - 1 + i < len(self.lines)]

    def _named(self, dotted: str, visible: list[dict[str, str]], cls: str | None,
               self_names: tuple[str, ...]) -> str | None:
        """The spelling (module docstring) of what a dotted name means, or None when it cannot be in jax."""
        head, _, rest = dotted.partition(".")
        if cls and rest and head in self_names:
            return f"~{cls}:{rest.partition('.')[0]}"
        for scope in reversed(visible):
            if head in scope:
                return f"@{scope[head]}" + (f".{rest}" if rest else "")
        if head in self.top:
            return f"{self.module}.{dotted}"
        base = self.imports.names.get(head)
        if base is None or not (base == PACKAGE_DIR or base.startswith(PACKAGE_DIR + ".")):
            return None
        return f"{base}.{rest}" if rest else base

    def rules(self, tree: ast.Module) -> dict[str, list[str]]:
        """The functions registered as each primitive's rules, by top-level statements naming both."""
        found: dict[str, set[str]] = {}
        for stmt in _top_level(tree.body):
            if isinstance(stmt, _FUNCTIONS) and stmt.decorator_list:
                # `@register_lowering_rule(foo_p)` above `def rule`: the decorators and the def's name.
                first = min(d.lineno for d in stmt.decorator_list)
                text = "\n".join(self.lines[first - 1:stmt.lineno - 1] + [f"{stmt.name}"])
            elif isinstance(stmt, _SIMPLE):
                text = "\n".join(self.lines[stmt.lineno - 1:stmt.end_lineno or stmt.lineno])
            else:
                continue
            if PRIMITIVE_SUFFIX not in text:
                continue
            words = {word for _, word in _WORDS.findall(text) if word}
            if any(w.rpartition(".")[2] in BIND_METHODS for w in words):
                continue  # binding a primitive, not registering a rule
            primitives = {w if w.endswith(PRIMITIVE_SUFFIX) else w.rpartition(".")[0]
                          for w in words if _names_primitive(w)}
            named = {self._named(w, [], None, ()) for w in words if not _names_primitive(w)}
            named.discard(None)
            for primitive in primitives:
                resolved = self._named(primitive, [], None, ())
                if resolved and named:
                    found.setdefault(resolved, set()).update(named)
        return {name: sorted(refs) for name, refs in sorted(found.items())}


    def installed(self, tree: ast.Module) -> dict[str, str]:
        """The public methods a module installs with setattr (`ARRAY_METHOD_TABLES`), each with its function."""
        found = {}
        for stmt in tree.body:
            target = stmt.targets[0] if isinstance(stmt, ast.Assign) else getattr(stmt, "target", None)
            table = target.id if isinstance(target, ast.Name) else None  # `_array_operators: dict[...] = {...}` too
            if table not in ARRAY_METHOD_TABLES or not isinstance(stmt.value, ast.Dict):
                continue
            for key, value in zip(stmt.value.keys, stmt.value.values):
                name = dotted_name(value) if isinstance(key, ast.Constant) and isinstance(key.value, str) else None
                if name and (ref := self._named(name, [], None, ())):
                    found[ARRAY_METHOD_TABLES[target.id].format(key.value)] = ref
        return dict(sorted(found.items()))


# A class the call makes an exception of: its words are the raise's own, read by the raise-site extractor.
_EXCEPTION_NAME = re.compile(r"(?:Error|Exception|Warning)$")


def _own_calls(node: ast.AST) -> tuple[list[ast.Call], dict[str, int]]:
    """The calls in a function's own lines, in source order (not those in the defs and classes nested in it), and the
    names its own lines assign (bind anew), each with the first line that does.

    Walked by hand, past the nodes that hold no call (names, constants, contexts, operators): most of a tree.
    """
    found = []
    assigned: dict[str, int] = {}
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, _ASSIGNING):
            for target in _targets(current):
                for name in ast.walk(target):
                    if isinstance(name, ast.Name) and isinstance(name.ctx, ast.Store):
                        assigned[name.id] = min(assigned.get(name.id, name.lineno), name.lineno)
        for name in current._fields:
            value = getattr(current, name, None)
            for child in value if isinstance(value, list) else (value,):
                if isinstance(child, ast.AST) and not isinstance(child, _NO_CALLS):
                    if isinstance(child, ast.Call):
                        found.append(child)
                    stack.append(child)
    return sorted(found, key=lambda call: (call.lineno, call.col_offset)), assigned


_ASSIGNING = (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.For, ast.AsyncFor, ast.NamedExpr, ast.withitem)


def _targets(node: ast.AST) -> list[ast.expr]:
    if isinstance(node, ast.Assign):
        return node.targets
    if isinstance(node, ast.withitem):
        return [node.optional_vars] if node.optional_vars is not None else []
    return [node.target]  # type: ignore[attr-defined]


def _method_kind(node: ast.FunctionDef | ast.AsyncFunctionDef, cls: str | None) -> str:
    """"function", or of a def in a class "method", "classmethod" or "staticmethod" (by its decorators)."""
    if cls is None:
        return "function"
    named = {dotted_name(d) for d in node.decorator_list}
    return next((kind for kind in ("classmethod", "staticmethod") if kind in named), "method")


# Nodes that hold no call, and the scopes nested in a function (walked as functions of their own).
_NO_CALLS = (ast.Name, ast.Constant, ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop, ast.alias,
             ast.Pass, ast.Break, ast.Continue, ast.Global, ast.Nonlocal, ast.Import, ast.ImportFrom, *_SCOPES)


def _before_starred(args: list[ast.expr]) -> list[ast.expr]:
    """The positional arguments whose positions are known: those before any `*args`."""
    starred = next((i for i, a in enumerate(args) if isinstance(a, ast.Starred)), len(args))
    return args[:starred]


def _is_words(node: ast.expr) -> bool:
    return isinstance(node, ast.JoinedStr) or isinstance(node, ast.Constant) and isinstance(node.value, str)


def _names_primitive(word: str) -> bool:
    """`foo_p`, `lax.foo_p`, or a method of one (`foo_p.def_impl`)."""
    parts = word.split(".")
    return parts[-1].endswith(PRIMITIVE_SUFFIX) or (len(parts) > 1 and parts[-2].endswith(PRIMITIVE_SUFFIX))


def _nested_qualname(outer: str, node: ast.AST, name: str) -> str:
    """Python's `__qualname__` of a def or class named `name` directly inside `node`."""
    if not outer:
        return name
    return f"{outer}.<locals>.{name}" if isinstance(node, _FUNCTIONS) else f"{outer}.{name}"


def _is_docstring(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)
