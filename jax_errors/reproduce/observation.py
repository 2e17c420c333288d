"""What running one case showed: the harness's record before any attribution to a raise site."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Literal

from jax_errors.reproduce.frames import Frame

Outcome = Literal["raised", "returned", "crashed", "timeout"]


@dataclass(frozen=True)
class Observation:
    """How `trigger()` ended, and whether `fixed()` then ran clean.

    `frames` is the traceback of the exception `trigger()` raised, outermost first.
    """

    outcome: Outcome
    exc_class: str | None = None
    message: str | None = None
    class_matches: bool = False
    frames: tuple[Frame, ...] = ()
    seconds: float = 0.0
    fixed_ok: bool = False
    fixed_error: str | None = None
    detail: str | None = None
    loaded: bool = True  # False when the case file itself raised, before trigger() was called
    tainted: bool = False  # the case left jax changed (a monkeypatch): its worker must not run another

    @classmethod
    def from_trigger(cls, message: dict[str, Any]) -> Observation:
        """The observation a worker's `trigger` reply describes (before `fixed()` ran)."""
        return cls(
            outcome="raised" if message["raised"] else "returned",
            exc_class=message.get("exc_class"),
            message=message.get("message"),
            class_matches=bool(message.get("class_matches")),
            frames=tuple(Frame(f["file"], f["line"], f["function"]) for f in message.get("frames", ())),
            seconds=message["seconds"],
            detail=message.get("detail"),
            loaded=message.get("loaded", True),
        )

    def with_fixed(self, message: dict[str, Any]) -> Observation:
        """This observation completed by a worker's `fixed` reply."""
        return replace(self, fixed_ok=message["ok"], fixed_error=message.get("error"),
                       seconds=self.seconds + message["seconds"], tainted=bool(message.get("tainted")))

    def with_fixed_failure(self, error: str, seconds: float) -> Observation:
        """This observation when `fixed()` never reported back (it hung or crashed the worker)."""
        return replace(self, fixed_ok=False, fixed_error=error, seconds=seconds)
