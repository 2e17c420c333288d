"""What `explain` gives back: a card's text, and a card matched to an error with its score and link."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from jax_errors.lookup.index import Entry
from jax_errors.site_gen.links import card_path

if TYPE_CHECKING:
    from jax_errors.reproduce.cases import Case


@dataclass(frozen=True)
class Fix:
    """A card's example: the reproduction case's trigger and its fixed version, each runnable as it stands."""

    case: str
    summary: str
    before: str
    after: str

    @classmethod
    def of_case(cls, case: Case) -> Fix:
        return cls(case.name, case.summary, case.trigger_source, case.fixed_source)


@dataclass(frozen=True)
class CardText:
    """What a card says: its message and, where a person wrote them, its meaning, solutions and example fix."""

    error_id: str
    title: str  # the card's heading: the message's words, placeholders as `…`
    exc_class: str
    message: str  # the message template, placeholders as `{expression}`
    path: str
    line: int
    snapshot: str  # the newest snapshot raising it
    headline: str | None = None  # the curated title
    meaning: str | None = None  # curated Markdown
    solutions: tuple[str, ...] = ()  # curated Markdown, best first
    fix: Fix | None = None
    removed_after: str | None = None  # no crawled snapshot raises it after this one

    @property
    def curated(self) -> bool:
        return self.headline is not None

    @property
    def name(self) -> str:
        """The curated title, else the heading."""
        return self.headline or self.title


def card_text(entry: Entry, says: Mapping[str, Any] | None) -> CardText:
    """A card from its lookup entry and what else it says (a record of `record.card_text`), if anything."""
    says = says or {}
    fix = says.get("fix")
    return CardText(
        entry.error_id, says.get("title") or default_title(entry), entry.exc_class, entry.template.text,
        entry.path, entry.lineno, entry.snapshot, says.get("headline"), says.get("meaning"),
        tuple(says.get("solutions") or ()), Fix(**fix) if fix else None,
        entry.until if entry.live_id is None else None,
    )


def default_title(entry: Entry) -> str:
    """The heading of a card known only by its entry: the message's words, else its class and place."""
    return entry.template.title or f"{entry.exc_class.rpartition('.')[2]} at {entry.path}:{entry.lineno}"


@dataclass(frozen=True)
class Explanation:
    """A card for an error: how well the error fits it, its first solution, its example fix and its link."""

    card: CardText
    score: float  # lookup's score, 0.6 to 1 (1 for a card asked for by id)
    confidence: str  # `high`, `medium` or `low`: lookup's bands (`lookup.index.CONFIDENCE`)
    url: str
    how: str = "id"  # "template", "first-line", "first-sentence", "cut", "fuzzy", "removed-name", "held", or "id"
    worded_until: str | None = None  # the message is an older wording, last raised in this snapshot

    @property
    def error_id(self) -> str:
        return self.card.error_id

    @property
    def title(self) -> str:
        """The curated title, else the card's heading."""
        return self.card.name

    @property
    def solution(self) -> str | None:
        """The first curated solution (Markdown)."""
        return self.card.solutions[0] if self.card.solutions else None

    @property
    def fix(self) -> str | None:
        """The example's fixed code."""
        return self.card.fix.after if self.card.fix else None

    @property
    def confident(self) -> bool:
        """Confident enough to show under a traceback: medium or high."""
        return self.confidence != "low"


def card_url(error_id: str, base_url: str | None) -> str:
    """The card's page: under `base_url`, or the site-relative path without one."""
    path = card_path(error_id)
    return f"{base_url.rstrip('/')}/{path}" if base_url else path
