"""Which passages of JAX's docs speak of a card's error: those quoting its message's words, or naming its class.

A card's message is matched by its literal phrases of at least MIN_WORDS words (a phrase that many
messages share, such as "Please open an issue", names none of them). A JAX exception class is
matched by its docstring, which docs.jax.dev's errors page shows, and by pages that name it.
"""

from __future__ import annotations

import re
import textwrap
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from jax_errors.crawler.docs import DocPassage, plain_heading
from jax_errors.template import MARKERS, Template, shortened

MIN_WORDS = 4
MIN_CHARACTERS = 24
MAX_SHARED = 3  # a phrase in more messages than this is boilerplate
MAX_MENTIONS = 3  # passages a card shows
MAX_EXCERPT = 600
MAX_CODE_LINES = 8
_WORDS = re.compile(r"\w+")


@dataclass(frozen=True)
class DocMention:
    """A passage of the docs, and why it is on a card."""

    passage: DocPassage
    names: Literal["message", "class"]
    words: str  # the message phrase, or the class name, it holds

    @property
    def excerpt(self) -> str:
        """The passage as a card shows it: prose as plain text, code and output near the words named, cut short."""
        text = self.passage.text
        if self.passage.kind in ("code", "output"):
            lines = text.splitlines()
            hit = next((i for i, line in enumerate(lines) if self.words.casefold() in " ".join(
                _WORDS.findall(line.casefold())) or self.words in line), 0)
            start = max(0, min(hit - 2, len(lines) - MAX_CODE_LINES))
            return textwrap.dedent("\n".join(lines[start:start + MAX_CODE_LINES]))
        return shortened(plain_heading(text), MAX_EXCERPT)

    def to_json(self) -> dict[str, str]:
        p = self.passage
        return {"title": p.heading, "url": p.url, "path": p.path, "kind": p.kind, "names": self.names,
                "words": self.words, "excerpt": self.excerpt}


def message_phrases(template: Template) -> list[tuple[str, ...]]:
    """The runs of literal words of a message long enough to name it, lower-cased.

    A word glued to a placeholder (`{n}D`) is left out: the message holds it with more letters.
    """
    phrases, run, glued_left = [], "", False
    for part in (*template.parts, None):
        if part is not None and part.kind == "lit":
            run += part.text
            continue
        if part is not None and part.kind in MARKERS and not run:
            continue
        words = _WORDS.findall(run.casefold())
        if words and glued_left and run[:1].isalnum():
            words = words[1:]
        if words and part is not None and run[-1:].isalnum():
            words = words[:-1]
        if len(words) >= MIN_WORDS and len(" ".join(words)) >= MIN_CHARACTERS:
            phrases.append(tuple(words))
        run, glued_left = "", part is not None and part.kind not in MARKERS
    return phrases


@dataclass(frozen=True)
class ErrorWords:
    """What of an error the docs may name: its message's template and its exception class."""

    error_id: str
    template: Template
    exc_class: str | None  # resolved; None when the crawler could not resolve it


def doc_mentions(errors: Iterable[ErrorWords], passages: Sequence[DocPassage]) -> dict[str, tuple[DocMention, ...]]:
    """The passages each error's card shows, best first: its message quoted, its class's docstring, its class named."""
    errors = list(errors)
    phrases = {e.error_id: message_phrases(e.template) for e in errors}
    shared = Counter(phrase for found in phrases.values() for phrase in set(found))
    index = _PassageIndex(passages)
    docstrings = {p.heading: p for p in passages if p.kind == "docstring"}
    found: dict[str, tuple[DocMention, ...]] = {}
    for error in errors:
        mentions = [DocMention(p, "message", " ".join(phrase)) for phrase in phrases[error.error_id]
                    if shared[phrase] <= MAX_SHARED for p in index.quoting(phrase)]
        name = jax_class_name(error.exc_class)
        if name:
            if name in docstrings:  # the classes of `jax.errors`, wherever they are imported from
                mentions.append(DocMention(docstrings[name], "class", name))
            mentions.extend(DocMention(p, "class", name) for p in index.naming(name) if _speaks_of_class(p, name))
        if mentions:
            found[error.error_id] = _best(mentions)
    return found


def jax_class_name(exc_class: str | None) -> str | None:
    """The name of an exception class JAX defines (`jax._src.errors.ConcretizationTypeError`), else None.

    A raise of a factory's result (`core.escaped_tracer_error(...)`) names a function: no class.
    """
    if not exc_class or not exc_class.startswith("jax."):
        return None
    name = exc_class.rsplit(".", 1)[1]
    return name if name[:1].isupper() else None


def _speaks_of_class(passage: DocPassage, name: str) -> bool:
    """Prose naming the class, or code and output showing it raised (`Name: ...`), not a list of API names."""
    if passage.kind == "prose":
        return True
    return passage.kind in ("code", "output") and re.search(rf"\b{re.escape(name)}:", passage.text) is not None


# Best first, for a passage quoting the message and for one naming the class.
_KIND_ORDER = {"message": {"prose": 0, "output": 1, "docstring": 2, "code": 3},
               "class": {"docstring": 0, "prose": 1, "output": 2, "code": 3}}


def _best(mentions: list[DocMention]) -> tuple[DocMention, ...]:
    """At most MAX_MENTIONS, one per section and excerpt: the message quoted before the class named."""
    ordered = sorted(mentions, key=lambda m: (m.names != "message", _KIND_ORDER[m.names][m.passage.kind],
                                              m.passage.path, m.passage.position))
    chosen: list[DocMention] = []
    for mention in ordered:
        if all(mention.passage.url != c.passage.url and mention.excerpt != c.excerpt for c in chosen):
            chosen.append(mention)
    return tuple(chosen[:MAX_MENTIONS])


class _PassageIndex:
    """The passages by the words they hold: which quote a phrase, which name a class."""

    def __init__(self, passages: Sequence[DocPassage]) -> None:
        self.passages = passages
        self.words = [" " + " ".join(_WORDS.findall(p.text.casefold())) + " " for p in passages]
        self.by_grams: dict[tuple[str, ...], set[int]] = defaultdict(set)
        self.by_token: dict[str, set[int]] = defaultdict(set)
        for number, passage in enumerate(passages):
            tokens = self.words[number].split()
            for start in range(len(tokens) - MIN_WORDS + 1):
                self.by_grams[tuple(tokens[start:start + MIN_WORDS])].add(number)
            for token in _WORDS.findall(passage.text):
                self.by_token[token].add(number)

    def quoting(self, phrase: tuple[str, ...]) -> list[DocPassage]:
        needle = " " + " ".join(phrase) + " "
        return [self.passages[n] for n in sorted(self.by_grams.get(phrase[:MIN_WORDS], ())) if needle in self.words[n]]

    def naming(self, name: str) -> list[DocPassage]:
        return [self.passages[n] for n in sorted(self.by_token.get(name, ()))]

