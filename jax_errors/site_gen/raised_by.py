"""A card's "Raised by": the public `jax.*` functions whose calls reach the raising function.

The names come from the crawl's static call graph (`crawler/callgraph.py`); each is checked
against the tracebacks of the reproductions that hit the error: a name whose function is a frame
of one is marked seen there.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from jax_errors.crawler.imports import module_name
from jax_errors.db.queries import PublicCaller

DOCS_API = "https://docs.jax.dev/en/latest/_autosummary/"
# Modules whose public names have pages in JAX's API reference (`_autosummary/<name>.html`).
_DOCUMENTED = ("jax.numpy", "jax.lax", "jax.nn", "jax.random", "jax.scipy", "jax.tree_util", "jax.tree",
               "jax.sharding", "jax.debug", "jax.dtypes", "jax.image", "jax.ops", "jax.profiler", "jax.stages",
               "jax.export", "jax.ffi", "jax.distributed", "jax.flatten_util", "jax.dlpack", "jax.experimental")
_UNDOCUMENTED = ("jax.experimental.pallas.ops", "jax.experimental.mosaic", "jax.experimental.jax2tf")


@dataclass(frozen=True)
class Caller:
    """One public name reaching the raising function, as a card shows it."""

    name: str  # e.g. jax.numpy.take
    url: str | None  # its page in JAX's API reference, where one can be named
    length: int  # calls from it to the raising function (0: it raises itself)
    route: tuple[str, ...]  # module.qualname of each function on one shortest way, the public one first
    seen_in: tuple[str, ...]  # reproduction cases whose traceback went through it

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "url": self.url, "calls": self.length, "route": list(self.route),
                "seen_in": list(self.seen_in)}


def callers_of(callers: Iterable[PublicCaller],
               tracebacks: Mapping[str, Iterable[Mapping[str, Any]]]) -> tuple[Caller, ...]:
    """The card's callers, each marked with the cases (`tracebacks`: case name -> jax frames) that went through it."""
    passed = {case: {(module_name(str(f.get("file", ""))), str(f.get("function", ""))) for f in frames}
              for case, frames in sorted(tracebacks.items())}
    shown = []
    for caller in callers:
        qualname = caller.route[0].partition(":")[2]
        # Length 0: the raising function itself, in every traceback of the error; nothing to check.
        own = _own_functions(caller.route) if passed and caller.length else set()
        shown.append(Caller(
            caller.name, docs_url(caller.name, is_method="." in qualname and "<locals>" not in qualname),
            caller.length, tuple(step.replace(":", ".", 1) for step in caller.route),
            tuple(case for case, frames in passed.items() if own & frames),
        ))
    return tuple(sorted(shown, key=lambda caller: not caller.seen_in))  # stable: nearest first otherwise


def _own_functions(route: tuple[str, ...]) -> set[tuple[str, str]]:
    """The public function of a route and the functions defined inside it on the way, as frames name them.

    `jax.vmap(f)(x)` runs `vmap.<locals>.vmap_f`: the traceback holds the wrapper, not `vmap`.
    """
    module, _, qualname = route[0].partition(":")
    inside = [step.partition(":")[2] for step in route if step.partition(":")[0] == module]
    return {(module, q.rpartition(".")[2]) for q in inside if q == qualname or q.startswith(f"{qualname}.<locals>.")}


@cache
def docs_url(name: str, *, is_method: bool = False) -> str | None:
    """The API reference page of a public name (a method: its class's page, at the method)."""
    page = name.rpartition(".")[0] if is_method else name
    owner = page.rpartition(".")[0]
    documented = owner == "jax" or any(owner == m or owner.startswith(m + ".") for m in _DOCUMENTED)
    if not documented or any(page.startswith(m + ".") for m in _UNDOCUMENTED):
        return None
    return f"{DOCS_API}{page}.html" + (f"#{name}" if is_method else "")
