"""What a site build writes for `explain` (`api/explain.json`): lookup's entries and what each card says."""

from __future__ import annotations

from dataclasses import asdict
from typing import TYPE_CHECKING, Any

from jax_errors.explainer.artifact import FORMAT, entry_record
from jax_errors.explainer.cards import Fix
from jax_errors.lookup.index import LookupIndex

if TYPE_CHECKING:
    from jax_errors.site_gen.catalogue import Card, Catalogue


def explain_record(catalogue: Catalogue, index: LookupIndex, *, base_url: str | None) -> dict[str, Any]:
    """The explain index of a catalogue: its lookup index (`browser.catalogue_index`) and its cards' text.

    Parameters:
        base_url: where the site is published (`jax-errors build --base-url`), recorded for the links.
    """
    return {
        "format": FORMAT,
        "base_url": base_url,
        "newest": catalogue.newest.label if catalogue.newest else None,
        "count": len(index.entries),
        "raised": sorted(index.raised),
        "entries": [entry_record(entry) for entry in index.entries],
        "index": index.prepared(),  # what lookup derives from the entries, so that the first exception reads it
        "cards": {card.id: card_text(card) for card in catalogue.sorted_cards() if says_more(card)},
    }


def says_more(card: Card) -> bool:
    """Whether the card shows more than its message: curated text, an example, or a title of its own."""
    return card.knowledge is not None or card.case is not None or card.title != card.template.title


def card_text(card: Card) -> dict[str, Any]:
    """What a card says beyond its message, as the site shows it (curated text through the error's lineage)."""
    knowledge, case = card.knowledge, card.case
    return {
        "title": card.title,
        "headline": knowledge.title if knowledge else None,
        "meaning": knowledge.meaning if knowledge else None,
        "solutions": list(knowledge.solutions) if knowledge else [],
        "fix": asdict(Fix.of_case(case)) if case else None,
    }
