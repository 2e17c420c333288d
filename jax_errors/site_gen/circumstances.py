"""When an error happens: its guard condition and the functions that reach the raise.

A reproduction's traceback names the jax functions a real call went through; without one the
enclosing function is all the crawler knows.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from jax_errors.crawler.imports import module_name
from jax_errors.site_gen.catalogue import Card
from jax_errors.site_gen.guard_words import Words, guard_words

# Frames that every jax call passes through and that say nothing about the error.
_PLUMBING = frozenset({
    "<module>", "<lambda>", "<listcomp>", "<genexpr>", "wrapper", "inner", "call_wrapped",
    "reraise_with_filtered_traceback", "cache_miss", "bind", "bind_with_trace", "process_primitive",
    "default_process_primitive", "apply_primitive", "memoized_fun", "cached", "__call__", "fun_remat",
    "wrapped", "f_wrapped", "wrapped_fun", "fun_wrapped", "tree_map",
})


@dataclass(frozen=True)
class Circumstances:
    """When an error happens: the guard of its raise and the functions that reach it."""

    guard_kind: str | None
    guard: str | None
    guard_words: Words | None  # the condition in plain words (`guard_words`), when it has them
    function: str  # module.qualname enclosing the raise
    public: tuple[str, ...]  # public jax functions that reached it (from a reproduction)
    frames: tuple[dict[str, Any], ...]
    from_frames: bool
    case: str | None  # the reproduction whose frames these are
    probe: str | None = None  # ... or the probed call whose frames these are, when no case reached it

    def to_json(self) -> dict[str, Any]:
        return {
            "guard": _guard_json(self.guard_kind, self.guard, self.guard_words) if self.guard_kind else None,
            "function": self.function, "public_functions": list(self.public), "frames": list(self.frames),
            "from": "reproduced" if self.from_frames else "extracted", "case": self.case, "probe": self.probe,
        }


def circumstances_of(card: Card) -> Circumstances:
    """When the card's error happens, from the best reproduction that reached this very error, if any.

    Without one, a probed call that raised this very id lends its traceback.
    """
    function = f"{card.module}.{card.site.qualname}"
    run = next(iter(card.traced_runs), None)
    probe = None if run else next((p for p in card.probes if p.error_id == card.id and p.frames), None)
    frames = tuple(run.frames) if run else tuple(probe.frames) if probe else ()
    worded = guard_words(card.site.guard) if card.site.guard_kind in ("if", "else") else None
    return Circumstances(
        guard_kind=card.site.guard_kind, guard=card.site.guard, guard_words=worded, function=function,
        public=public_functions(frames), frames=frames, from_frames=bool(frames),
        case=run.case_name if run else None, probe=probe.call if probe else None,
    )


def _guard_json(kind: str, condition: str | None, words: Words | None) -> dict[str, Any]:
    found: dict[str, Any] = {"kind": kind, "condition": condition}
    if words:
        found["words"] = "".join(f"`{p.text}`" if p.code else p.text for p in words)
    return found


def public_functions(frames: tuple[dict[str, Any], ...]) -> tuple[str, ...]:
    """Outermost first, the distinct public, non-plumbing functions of jax frames, module-qualified."""
    seen: list[str] = []
    for frame in frames:
        name = str(frame.get("function", ""))
        if not name or name.startswith("_") or name in _PLUMBING:
            continue
        qualified = f"{module_name(str(frame.get('file', '')))}.{name}"
        if qualified not in seen:
            seen.append(qualified)
    return tuple(seen)


def guard_sentence(kind: str | None, condition: str | None) -> tuple[str, str | None]:
    """A lead-in and the code it introduces, e.g. ("Raised when", "not x_aval.mat.varying")."""
    if kind in ("if", "else"):
        return "Raised when", condition
    if kind == "except":
        return "Raised while handling", condition
    if kind == "while":
        return "Raised inside the loop", f"while {condition}"
    if kind == "case":
        return "Raised in the match case", condition
    if kind == "access":  # a name a module removed (`crawler.deprecation_tables`)
        return "Raised when code reads the removed name", condition
    return "Raised unconditionally whenever this statement runs", None
