"""Which public `jax.*` functions reach each raising function: a static call graph of one snapshot.

Built from the files' call summaries (`calls.py`). Functions are nodes, keyed by module and
qualified name; a reference is resolved through imports, re-exports (`from x import y as y`, plain
aliases) and, for `self.m()`/`super().m()`, the class's bases. Calling a class reaches its
`__init__`, `__new__` and `__post_init__`; `foo_p.bind(...)` reaches the rules registered for the
primitive `foo_p`. The public entry points are the names the public modules export (`__all__`, else
every name without a leading underscore), a public class's own public methods, and the methods
`jax.Array` gets with setattr (`calls.ARRAY_METHOD_TABLES`: `x.reshape`, `x[i]`).

From every entry point, names spread along calls, breadth first and at most MAX_CALL_DEPTH calls
deep; a function keeps the MAX_ENTRY_POINTS nearest names that reach it, with the route of one
shortest path. The work is linear in the calls: each function passes on at most that many names.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from jax_errors.crawler.calls import BIND_METHODS
from jax_errors.crawler.imports import module_name
from jax_errors.crawler.sources import PACKAGE_DIR

MAX_CALL_DEPTH = int(os.environ.get("JAX_ERRORS_CALL_DEPTH", "8"))
# Bump when the graph reads summaries otherwise: snapshots built by another version are built again.
GRAPH_VERSION = "3"
# Kept per raising function; a card shows the nearest 8, those a reproduction went through first.
MAX_ENTRY_POINTS = int(os.environ.get("JAX_ERRORS_ENTRY_POINTS", "16"))
# How many calls on words passed to a function's parameter are followed, when it passes them on as they came.
MAX_PASSED_ON = 3
# Re-export chains and class hierarchies are short; these bound a cycle of aliases or bases.
_MAX_HOPS = 16
_CONSTRUCTORS = ("__init__", "__new__", "__post_init__")

Node = tuple[str, str]  # (module, qualname)


@dataclass(frozen=True)
class EntryPoint:
    """A public name that reaches a raising function, and one shortest route of calls to it."""

    name: str  # e.g. jax.numpy.take
    route: tuple[str, ...]  # module:qualname of each function, from the public one to the raising one

    @property
    def length(self) -> int:
        """How many calls from the public function to the raising one (0: it raises itself)."""
        return len(self.route) - 1


@cache
def entry_order(name: str) -> tuple:
    """Which public name to prefer among equally near ones: fewer dots, not experimental, then by name."""
    return (name.count("."), ".experimental." in name, name)


class CallGraph:
    """The functions of one snapshot and the calls between them, resolved on demand."""

    def __init__(self, summaries: Mapping[str, Mapping[str, Any]]) -> None:
        """`summaries`: each file's call summary, by path."""
        self.paths = {module_name(path): path for path in summaries}
        self.summaries = {module_name(path): summary for path, summary in summaries.items()}
        self._resolved: dict[str, tuple | None] = {}
        self._edges: dict[Node, tuple[Node, ...]] = {}
        self._rules: dict[Node, list[tuple[str, str]]] | None = None
        self._public: dict[str, Node] | None = None

    # Resolving names ---------------------------------------------------------------------------
    def resolve(self, dotted: str, hops: int = 0) -> tuple | None:
        """("def", module, qualname) or ("var", module, name) that a dotted name means, or None."""
        if dotted in self._resolved:
            return self._resolved[dotted]
        self._resolved[dotted] = None  # a cycle of aliases resolves to nothing
        parts = dotted.split(".")
        found = None
        for cut in range(len(parts), 0, -1):
            module = ".".join(parts[:cut])
            if module in self.summaries:
                found = self._in_module(module, parts[cut:], hops) if cut < len(parts) else None
                break
        self._resolved[dotted] = found
        return found

    def _in_module(self, module: str, rest: list[str], hops: int) -> tuple | None:
        summary = self.summaries[module]
        name, attrs = rest[0], rest[1:]
        if name in summary["defs"]:
            return self._member((module, name), attrs)
        target = summary["bindings"].get(name)
        if target:
            return self.resolve(".".join([target, *attrs]), hops + 1) if hops < _MAX_HOPS else None
        if target == "" and len(attrs) <= 1:
            return ("var", module, name, *attrs)
        return None

    def _member(self, node: Node, attrs: list[str]) -> tuple | None:
        for attr in attrs:
            if not self._is_class(node):
                return None
            found = self.method(node, attr)
            if found is None:
                return None
            node = found
        return ("def", *node)

    def _is_class(self, node: Node) -> bool:
        entry = self.summaries[node[0]]["defs"].get(node[1])
        return entry is not None and entry[0] == "class"

    def method(self, cls: Node, attr: str, hops: int = 0) -> Node | None:
        """The function `attr` of class `cls` or of its nearest base that has one."""
        module, qualname = cls
        if f"{qualname}.{attr}" in self.summaries[module]["defs"]:
            return (module, f"{qualname}.{attr}")
        if hops >= _MAX_HOPS:
            return None
        for base in self._bases(cls):
            found = self.method(base, attr, hops + 1)
            if found:
                return found
        return None

    def _bases(self, cls: Node) -> Iterator[Node]:
        for ref in self.summaries[cls[0]]["defs"][cls[1]][1]:
            target = self.resolve_ref(cls[0], ref)
            if target and target[0] == "def" and self._is_class(target[1:3]) and target[1:3] != cls:
                yield target[1:3]

    def resolve_ref(self, module: str, ref: str) -> tuple | None:
        """What a reference (in `calls.py`'s spellings) of a function of `module` means."""
        if ref[0] == "@":
            return self._local(module, ref[1:])
        if ref[0] == "%":
            return self._made(module, *ref[1:].rsplit(":", 1))
        if ref[0] in "~^":
            cls, _, attr = ref[1:].partition(":")
            if cls not in self.summaries[module]["defs"]:
                return None
            node = (module, cls)
            found = self.method(node, attr) if ref[0] == "~" else next(
                (m for base in self._bases(node) if (m := self.method(base, attr))), None)
            return ("def", *found) if found else None
        return self.resolve(ref)

    def _made(self, module: str, made: str, attr: str) -> tuple | None:
        """Method `attr` of the value `made(...)` returns: of the class `made`, or of the class whose method it is."""
        target = self.resolve_ref(module, made)
        if target is None or target[0] != "def":
            return None
        cls = (target[1], target[2])
        if not self._is_class(cls):
            cls = (target[1], target[2].rpartition(".")[0])
            if not self._is_class(cls):
                return None
        found = self.method(cls, attr)
        return ("def", *found) if found else None

    def _local(self, module: str, spelled: str) -> tuple | None:
        """`outer.<locals>.inner.attr`: the longest prefix naming a function of the module, then attributes."""
        defs = self.summaries[module]["defs"]
        head, attrs = spelled, []
        while head not in defs and "." in head:
            head, _, attr = head.rpartition(".")
            attrs.insert(0, attr)
        return self._member((module, head), attrs) if head in defs else None

    # Edges -------------------------------------------------------------------------------------
    def callees(self, node: Node) -> tuple[Node, ...]:
        """The functions `node` calls (or refers to), in a fixed order."""
        if node not in self._edges:
            self._edges[node] = tuple(sorted(set(self._callees(node))))
        return self._edges[node]

    def _callees(self, node: Node) -> Iterator[Node]:
        module, qualname = node
        kind, _bases, _raises, refs = self.summaries[module]["defs"][qualname]
        if kind == "class":
            yield from (m for name in _CONSTRUCTORS if (m := self.method(node, name)))
            return
        for ref in refs:
            yield from self._targets(module, ref)

    def _targets(self, module: str, ref: str) -> Iterator[Node]:
        target = self.resolve_ref(module, ref)
        if target is not None and target[0] == "def":
            yield target[1], target[2]
        elif target is not None and len(target) == 4 and target[3] in BIND_METHODS:
            for rule_module, rule in self.rules().get((target[1], target[2]), ()):
                found = self.resolve_ref(rule_module, rule)
                if found is not None and found[0] == "def":
                    yield found[1], found[2]

    def rules(self) -> dict[Node, list[tuple[str, str]]]:
        """The rules registered for each primitive, by the primitive's defining module and name."""
        if self._rules is None:
            self._rules = {}
            for module, summary in sorted(self.summaries.items()):
                for primitive, refs in summary["rules"].items():
                    var = self.resolve(primitive)
                    if var is not None and var[0] == "var":
                        self._rules.setdefault((var[1], var[2]), []).extend((module, ref) for ref in refs)
        return self._rules

    # Entry points ------------------------------------------------------------------------------
    def public_names(self) -> dict[str, Node]:
        """Every public name of the package that is a function or class (or a public class's method)."""
        if self._public is None:
            self._public = self._find_public_names()
        return self._public

    def _find_public_names(self) -> dict[str, Node]:
        found: dict[str, Node] = {}
        for module in sorted(self.summaries):
            if not is_public_module(module):
                continue
            summary = self.summaries[module]
            names = summary["all"] if summary["all"] is not None else [
                n for n in summary["bindings"] if not n.startswith("_")]
            for name in names:
                target = self.resolve(f"{module}.{name}")
                if target is not None and target[0] == "def":
                    found[f"{module}.{name}"] = (target[1], target[2])
                    if self._is_class((target[1], target[2])):
                        found.update(self._public_methods(f"{module}.{name}", (target[1], target[2])))
        for module, summary in sorted(self.summaries.items()):
            for name, ref in summary.get("installed", {}).items():
                target = self.resolve_ref(module, ref)
                if target is not None and target[0] == "def":
                    found.setdefault(name, (target[1], target[2]))
        return found

    def _public_methods(self, public: str, cls: Node) -> dict[str, Node]:
        module, qualname = cls
        prefix = f"{qualname}."
        return {f"{public}.{q[len(prefix):]}": (module, q) for q, entry in self.summaries[module]["defs"].items()
                if q.startswith(prefix) and "." not in q[len(prefix):] and not q[len(prefix):].startswith("_")
                and entry[0] == "function"}

    def entry_points(self) -> list[tuple[Node, str]]:
        """Where each public name starts: its function, and for a method the overrides in subclasses.

        `jax.Array.addressable_data` is abstract in `basearray.Array`; calling it runs `ArrayImpl`'s.
        """
        found = [(node, name) for name, node in self.public_names().items()]
        children = self._subclasses()
        for name, (module, qualname) in self.public_names().items():
            cls, _, attr = qualname.rpartition(".")
            if not cls or "<locals>" in qualname or not self._is_class((module, cls)):
                continue
            for sub_module, sub in _descendants((module, cls), children):
                if f"{sub}.{attr}" in self.summaries[sub_module]["defs"]:
                    found.append(((sub_module, f"{sub}.{attr}"), name))
        return found

    def _subclasses(self) -> dict[Node, list[Node]]:
        children: dict[Node, list[Node]] = {}
        for module, summary in sorted(self.summaries.items()):
            for qualname, entry in summary["defs"].items():
                if entry[0] == "class" and entry[1]:
                    for base in self._bases((module, qualname)):
                        children.setdefault(base, []).append((module, qualname))
        return children

    def raised_by(self, *, depth: int = MAX_CALL_DEPTH,
                  keep: int = MAX_ENTRY_POINTS) -> dict[tuple[str, str], list[EntryPoint]]:
        """For each function holding a raise (by path and qualname), its nearest public entry points."""
        labels = self._spread(self.entry_points(), depth=depth, keep=keep)
        found: dict[tuple[str, str], list[EntryPoint]] = {}
        for module, summary in sorted(self.summaries.items()):
            for qualname, (kind, _bases, raises, _refs) in summary["defs"].items():
                node = (module, qualname)
                if raises and kind == "function" and node in labels:
                    found[(self.paths[module], qualname)] = self._entries(node, labels)[:keep]
        return found

    def passed_words(self) -> list[dict[str, Any]]:
        """Each call that passes literal words to parameters of a function that raises: the function and the caller
        (by path and qualname) and the words, by parameter name (`calls.py`'s `passes` joined with `params`).

        Words a function passes on as they came (`def ensure_arraylike(fun_name, *args): check_arraylike(fun_name,
        *args)`) reach the function it passes them to as the first caller's, at most MAX_PASSED_ON calls on; each
        function once per call with the same words. A method called on an instance (`self.check("...")`), and a
        classmethod however called, take their words one position on, past `self` or `cls`.
        """
        found = []
        passed_on = self._passed_on()
        for module, summary in sorted(self.summaries.items()):
            for caller, passes in summary.get("passes", {}).items():
                for ref, arguments in passes:
                    reached = [self._bound(module, ref, arguments, list)]
                    seen: set[tuple[Node, str]] = set()
                    for _ in range(MAX_PASSED_ON + 1):
                        onward = []
                        for target, words in reached:
                            key = (target, json.dumps(words, sort_keys=True)) if target is not None else None
                            if key is None or not words or key in seen:
                                continue
                            seen.add(key)
                            if self.summaries[target[0]]["defs"][target[1]][2]:  # it raises
                                found.append({"path": self.paths[target[0]], "qualname": target[1],
                                              "caller_path": self.paths[module], "caller_qualname": caller,
                                              "words": words})
                            onward += [(node, {name: words[own] for name, own in names.items() if own in words})
                                       for node, names in passed_on.get(target, ())]
                        reached = onward
        return found

    def _passed_on(self) -> dict[Node, list[tuple[Node, dict[str, str]]]]:
        """Of each function that passes its own parameters on, each function it passes them to and which of that one's
        parameters each binds (its parameter -> the passing function's), each once."""
        found: dict[Node, list[tuple[Node, dict[str, str]]]] = {}
        for module, summary in sorted(self.summaries.items()):
            for caller, passes in summary.get("passes", {}).items():
                for ref, arguments in passes:
                    target, names = self._bound(module, ref, arguments, str)
                    held = found.setdefault((module, caller), [])
                    if target is not None and names and (target, names) not in held:
                        held.append((target, names))
        return found

    def _bound(self, module: str, ref: str, arguments: dict[str, Any], kind: type) -> tuple[Node | None, dict]:
        """The function a call calls, and its parameters bound to the arguments of one kind (words passed, `list`,
        or parameters passed on, `str`); None and nothing when it is no function of the snapshot."""
        target = self.resolve_ref(module, ref)
        if target is None or target[0] != "def":
            return None, {}
        params = self.summaries[target[1]].get("params", {}).get(target[2])
        bound = {name: value for key, value in sorted(arguments.items()) if isinstance(value, kind)
                 and params and (name := _parameter(params, key, bound=ref[0] in "~^%"))}
        return (target[1], target[2]), bound

    def _spread(self, sources: list[tuple[Node, str]], *, depth: int, keep: int) -> dict[Node, dict[str, Node | None]]:
        """Breadth first from the public names: each function's nearest names, with the caller each came from."""
        labels: dict[Node, dict[str, Node | None]] = {}
        frontier = sorted(sources, key=lambda item: (entry_order(item[1]), item[0]))
        for node, name in frontier:
            labels.setdefault(node, {})[name] = None
        edges = self._edges
        # The frontier stays in `entry_order` of its names with no sort: each step goes through it in that
        # order, and what a name reaches is appended in the order the name comes.
        for _ in range(depth):
            reached = []
            for node, name in frontier:
                callees = edges.get(node)
                for callee in self.callees(node) if callees is None else callees:
                    held = labels.get(callee)
                    if held is None:
                        labels[callee] = {name: node}
                    elif name in held or len(held) >= keep:
                        continue
                    else:
                        held[name] = node
                    reached.append((callee, name))
            frontier = reached
        return labels

    def _entries(self, node: Node, labels: Mapping[Node, Mapping[str, Node | None]]) -> list[EntryPoint]:
        entries = []
        for name in labels[node]:
            route, current = [node], node
            while (caller := labels[current][name]) is not None:
                route.append(caller)
                current = caller
            entries.append(EntryPoint(name, tuple(f"{m}:{q}" for m, q in reversed(route))))
        return sorted(entries, key=lambda e: (e.length, entry_order(e.name)))


def _parameter(params: list, key: str, *, bound: bool) -> str | None:
    """The name of the parameter an argument binds: at position `key` ("0"), or by keyword `key`; None if none.

    `bound`: the call is spelled on an instance (`self.m(...)`), so a method's `self` is bound already; a classmethod's
    `cls` always is, a staticmethod has none.
    """
    positional, keyword_only, kind = params
    if not key.isdigit():
        return key if key in positional or key in keyword_only else None
    index = int(key) + (1 if kind == "classmethod" or kind == "method" and bound else 0)
    return positional[index] if index < len(positional) else None


def _descendants(cls: Node, children: Mapping[Node, list[Node]]) -> list[Node]:
    found, stack = [], list(children.get(cls, ()))
    while stack and len(found) < 64:  # a hierarchy deep or wide past this says nothing about one method
        node = stack.pop()
        if node not in found:
            found.append(node)
            stack.extend(children.get(node, ()))
    return sorted(found)


def is_public_module(module: str) -> bool:
    """Whether a module is one a user imports: in the package, no part private (`jax._src.core` is not)."""
    parts = module.split(".")
    # `jax/foo-bar.py` cannot be imported, so it exports nothing.
    return parts[0] == PACKAGE_DIR and all(part.isidentifier() and not part.startswith("_") for part in parts)
