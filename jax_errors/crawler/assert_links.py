"""Link a test's message pattern to the raise sites whose template can produce a message it matches.

The pattern's literal runs are aligned with each template's literal text: the score is the share of
the runs' characters found there, in order, in pieces of at least `MIN_BLOCK` characters. Values
a test spells out (`(3,)`, `float32`) stand where the template has a placeholder, so a score below
1 is expected; the exception classes, when both sides resolve, must be compatible.
"""

from __future__ import annotations

import math
import pydoc
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import cache

from jax_errors.crawler.assert_patterns import literal_runs
from jax_errors.crawler.asserts import MinedAssert
from jax_errors.template import Template

MIN_SCORE = 0.6
MIN_BLOCK = 4
MAX_LINKS = 5
SHORTLIST = 40  # sites sharing the most (rare) words with the pattern are aligned character by character
_WORD = re.compile(r"[a-z_][a-z0-9_]{2,}")
_GAP = "\0"  # between two literal parts of a template: no alignment crosses a placeholder


@dataclass(frozen=True)
class Candidate:
    """A raise site of the snapshot, as the linker sees it."""

    site_id: int
    error_id: str | None
    exc_class: str | None
    template: Template
    path: str = ""
    lineno: int = 0

    @property
    def literal_text(self) -> str:
        pieces = (" ".join(p.text.split()).lower() for p in self.template.parts if p.kind == "lit")
        return _GAP.join(piece for piece in pieces if piece)


@dataclass(frozen=True)
class Link:
    """One candidate site for one assert's pattern."""

    site_id: int
    error_id: str | None
    score: float


class TemplateIndex:
    """The templates of one snapshot, indexed by the words of their literal text."""

    def __init__(self, candidates: Sequence[Candidate]) -> None:
        self.candidates = [c for c in candidates if c.literal_text.strip(_GAP + " ")]
        self.texts = [c.literal_text for c in self.candidates]
        self.by_word: dict[str, list[int]] = defaultdict(list)
        for index, text in enumerate(self.texts):
            for word in set(_WORD.findall(text)):
                self.by_word[word].append(index)
        total = max(1, len(self.candidates))
        self.weight = {word: math.log(1 + total / len(ids)) for word, ids in self.by_word.items()}

    def link(self, mined: MinedAssert) -> list[Link]:
        """The sites whose templates this assert's pattern matches best, best first."""
        if mined.pattern is None or mined.pattern_kind is None:
            return []
        runs = [run.lower() for run in literal_runs(mined.pattern, mined.pattern_kind)]
        if not runs:
            return []
        scored = []
        for index in self._shortlist(runs):
            candidate = self.candidates[index]
            if not classes_compatible(mined.exc_classes, candidate.exc_class):
                continue
            score = coverage(runs, self.texts[index])
            if score >= MIN_SCORE:
                scored.append(Link(candidate.site_id, candidate.error_id, round(score, 4)))
        scored.sort(key=lambda link: (-link.score, link.site_id))
        return scored[:MAX_LINKS]

    def _shortlist(self, runs: Iterable[str]) -> list[int]:
        hits: Counter[int] = Counter()
        for word in set(w for run in runs for w in _WORD.findall(run)):
            for index in self.by_word.get(word, ()):
                hits[index] += self.weight[word]
        return [index for index, _ in hits.most_common(SHORTLIST)]


def coverage(runs: Sequence[str], text: str) -> float:
    """The share of the runs' characters that line up, in order, with the template's literal text."""
    total = sum(len(run) for run in runs)
    covered = 0
    for run in runs:
        matcher = SequenceMatcher(None, run, text, autojunk=False)
        shortest = min(MIN_BLOCK, len(run))
        covered += sum(block.size for block in matcher.get_matching_blocks() if block.size >= shortest)
    return covered / total if total else 0.0


def classes_compatible(expected: Sequence[str], raised: str | None) -> bool:
    """Whether a site raising `raised` can satisfy an assert expecting any of `expected`.

    Unknown on either side (an unresolved name, a class that does not import) counts as compatible.
    """
    if not expected or not raised:
        return True
    raised_class = _load_class(raised)
    if raised_class is None:
        return True
    for name in expected:
        expected_class = _load_class(name)
        if expected_class is None or issubclass(raised_class, expected_class):
            return True
    return False


@cache
def _load_class(dotted: str) -> type | None:
    try:
        found = pydoc.locate(dotted)
    except Exception:  # noqa: BLE001 - a module that fails to import only means "unknown"
        return None
    return found if isinstance(found, type) and issubclass(found, BaseException) else None
