"""Attribute an observed error to the crawled raise site it came from, and judge the case.

The innermost traceback frame inside the installed `jax` package is where jax raised; the raise
site the crawler found at that line of the pinned snapshot is the catalogue's error. The case
is `reproduced` when that site exists (and is the case's ERROR_ID, if it names one), the class is
exactly EXPECTED, and the message fits both the site's template and MESSAGE_CONTAINS.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from sqlalchemy.orm import Session

from jax_errors.db.models import Snapshot
from jax_errors.db.queries import LocatedSite, site_at
from jax_errors.reproduce.cases import Case
from jax_errors.reproduce.frames import Frame, jax_frames
from jax_errors.reproduce.observation import Observation
from jax_errors.template import Template, folded, template_regex

Status = Literal["reproduced", "wrong-site", "message-mismatch", "no-error", "crashed", "timeout"]
STATUSES: tuple[Status, ...] = ("reproduced", "wrong-site", "message-mismatch", "no-error", "crashed", "timeout")
MAX_FRAMES = 30
# jax.errors classes append a link to their docs page to the message they are given.
_ERROR_PAGE = re.compile(r"\nSee https://docs\.jax\.dev/\S*\s*\Z")


@dataclass(frozen=True)
class Attribution:
    """The verdict on one case, and the raise site its error came from (if one was found)."""

    status: Status
    detail: str | None = None
    error_id: str | None = None
    path: str | None = None
    line: int | None = None
    frames: tuple[Frame, ...] = ()  # inside jax, innermost last


def raise_site_of(session: Session, snapshot: Snapshot, frame: Frame) -> LocatedSite | None:
    """The crawled raise site whose statement holds a jax frame's line: the error jax raised there."""
    return site_at(session, snapshot, frame.file, frame.line)


def attribute(session: Session, snapshot: Snapshot, case: Case, observation: Observation, *,
              jax_dir: Path) -> Attribution:
    """Judge one case's observation against the raise sites crawled in `snapshot`."""
    if observation.outcome in ("crashed", "timeout"):
        return Attribution(observation.outcome, observation.detail)
    if observation.outcome == "returned":
        return Attribution("no-error", "trigger() returned without raising")
    if not observation.loaded:
        return Attribution("wrong-site", f"the case file raised {observation.exc_class} while loading")
    frames = jax_frames(observation.frames, jax_dir, limit=MAX_FRAMES)
    if not frames:
        return Attribution("wrong-site", _joined("no traceback frame inside jax", observation.detail))
    inner = frames[-1]
    located = raise_site_of(session, snapshot, inner)
    if located is None:
        return Attribution("wrong-site", f"no crawled raise site at {inner.file}:{inner.line}", frames=frames)
    found = Attribution("reproduced", None, located.error_id, located.path, located.site.lineno, frames)
    return _judge(found, located, case, observation)


def _judge(found: Attribution, located: LocatedSite, case: Case, observation: Observation) -> Attribution:
    if case.error_id and located.error_id not in case.error_ids:
        return _with(found, "wrong-site", f"raised at error {located.error_id}, not ERROR_ID {case.error_id}")
    if not observation.class_matches:
        return _with(found, "wrong-site", _joined(
            f"raised {observation.exc_class}, not EXPECTED {case.expected}", observation.detail))
    message = observation.message or ""
    if not message_fits(message, located.site.template_parts):
        return _with(found, "message-mismatch", f"the message does not fit the template: {located.site.template}")
    if folded(case.message_contains) not in folded(message):
        return _with(found, "message-mismatch", "the message does not contain MESSAGE_CONTAINS")
    if not located.site.template_parts:
        return _with(found, "reproduced", "the site's template is unknown; only MESSAGE_CONTAINS was checked")
    return found


def message_fits(message: str, template_parts: list) -> bool:
    """Whether `message` (or, for jax.errors classes, it without the docs link) fits the template.

    An empty template (the site raises an error built elsewhere, `raise err(...) if ... else e`)
    says nothing about the message, so every message fits it.
    """
    if not template_parts:
        return True
    pattern = template_regex(Template.from_json(template_parts))
    candidates = {message, _ERROR_PAGE.sub("", message)}
    return any(pattern.fullmatch(folded(text)) for text in candidates)


def _with(found: Attribution, status: Status, detail: str) -> Attribution:
    return Attribution(status, detail, found.error_id, found.path, found.line, found.frames)


def _joined(*parts: str | None) -> str:
    return "; ".join(p for p in parts if p)
