"""Related errors: same message elsewhere, same function, or a similar message in the same file.

Similarity is the Jaccard index of the word sets of two message skeletons: cheap, deterministic,
and computed only within a file (plus exact skeleton matches across the catalogue).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable

from jax_errors.site_gen.catalogue import Card, Related

MAX_RELATED = 6
MIN_SIMILARITY = 0.2
_WORD = re.compile(r"[a-z0-9_]{2,}")
# Best first; the order a card lists its related errors in.
REASONS = ("same message", "same function", "similar message")


def words(skeleton: str) -> frozenset[str]:
    return frozenset(_WORD.findall(skeleton.lower()))


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a or not b:
        return 0.0
    return len(a & b) / len(a | b)


def related_errors(cards: Iterable[Card], *, limit: int = MAX_RELATED) -> dict[str, tuple[Related, ...]]:
    """Up to `limit` related errors for every card, best first, ties broken by id."""
    cards = sorted(cards, key=lambda c: c.id)
    skeletons = {c.id: c.template.skeleton for c in cards}
    bags = {c.id: words(skeletons[c.id]) for c in cards}
    by_file: dict[str, list[Card]] = defaultdict(list)
    by_skeleton: dict[str, list[Card]] = defaultdict(list)
    for card in cards:
        by_file[card.location.path].append(card)
        if bags[card.id]:
            by_skeleton[skeletons[card.id]].append(card)
    found: dict[str, dict[str, tuple[int, float, Card]]] = {card.id: {} for card in cards}
    for card in cards:
        for other in by_skeleton.get(skeletons[card.id], ()):
            if other.id != card.id and other.location.path != card.location.path:
                found[card.id][other.id] = (0, 1.0, other)
    for members in by_file.values():  # each pair of a file once: the index and the reasons are symmetric
        for (i, j), rank, score in _scored_pairs(members, [bags[card.id] for card in members]):
            card, other = members[i], members[j]
            found[card.id][other.id] = (rank, score, other)
            found[other.id][card.id] = (rank, score, card)
    related = {}
    for card in cards:
        best = sorted(found[card.id].values(), key=lambda f: (f[0], -f[1], f[2].id))[:limit]
        related[card.id] = tuple(
            Related(other.id, other.title, REASONS[rank], round(score, 3)) for rank, score, other in best
        )
    return related


def _scored_pairs(members: list[Card], bags: list[frozenset[str]]):
    """The related pairs among one file's cards: ((i, j), rank, similarity), i < j.

    A file may hold hundreds of errors: each bag becomes a bit set over the file's words, so that
    `jaccard` is two integer operations per pair.
    """
    bit = {word: 1 << n for n, word in enumerate(sorted(set().union(*bags)))}
    sets = [sum(bit[word] for word in bag) for bag in bags]
    functions = [card.site.qualname for card in members]
    for i, (mine, function) in enumerate(zip(sets, functions)):
        for j in range(i + 1, len(sets)):
            shared = (mine & sets[j]).bit_count()
            score = shared / (mine | sets[j]).bit_count() if shared else 0.0  # as `jaccard`
            if functions[j] == function:
                yield (i, j), 1, score
            elif score >= MIN_SIMILARITY:
                yield (i, j), 2, score
