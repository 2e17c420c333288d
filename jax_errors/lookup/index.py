"""Find the card for a message a user got: templates as regexes first, fuzzy matching after.

A message that a template fully matches scores 0.9 to 1.0 (more literal text matched, higher).
A reworded message (another jax version, or a template with opaque pieces) falls back to fuzzy
matching on the skeleton, and on messages the error was seen raising (by a reproduction case or
a JAX test), and scores below 0.9.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property

from rapidfuzz import fuzz, process
from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from jax_errors.db.engine import consistent_reads
from jax_errors.db.history import ordered_snapshots
from jax_errors.db.models import Occurrence, RaiseSite
from jax_errors.db.queries import chunks, observed_messages, worded_messages
from jax_errors.exceptions import QueryTooLongError
from jax_errors.template import MARKERS, OPENERS, Template, Wording, as_raised, template_regex

# A pasted traceback of a few hundred frames fits; a megabyte of text is no message (and costs seconds).
MAX_QUERY_CHARS = 100_000
# Messages an error was seen raising that fuzzy matching compares too, per error.
EXAMPLES_PER_ERROR = 3
# A template match scores TEMPLATE_BASE plus COVERAGE_WEIGHT times the share of the message it spells out.
TEMPLATE_BASE = 0.9
COVERAGE_WEIGHT = 0.1
FUZZY_CEILING = 0.85
FUZZY_FLOOR = 0.5
PATH_BONUS = 0.05
# Between sites with the same words, one seen raising (a reproduction or a JAX test) is the likelier: the other may be
# dead code or a rarely taken path.
RAISED_BONUS = 0.02
CLASS_PENALTY = 0.1
# Fuzzy candidates scored per card asked for: a template match may take one of their places.
FUZZY_CANDIDATES = 4
FRAME = re.compile(r'File "(?P<file>[^"]+)", line (?P<line>\d+)')
EXCEPTION_LINE = re.compile(r"^(?P<cls>[A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Warning|Iteration))(?::\s?(?P<msg>.*))?$")
VALUES = re.compile(r"\d+(?:\.\d+)?|'[^']*'|\"[^\"]*\"|\([^()]*\)|\[[^\[\]]*\]")


@dataclass(frozen=True)
class Entry:
    """One error of the catalogue as lookup sees it: its newest wording and place."""

    error_id: str
    exc_class: str
    template: Template
    path: str
    lineno: int
    snapshot: str
    examples: tuple[str, ...] = ()  # fuzzy keys of messages it was seen raising, at most EXAMPLES_PER_ERROR

    @cached_property
    def regex(self) -> re.Pattern[str]:
        return template_regex(self.template)

    @cached_property
    def literal_length(self) -> int:
        return sum(len(p.text.strip()) for p in self.template.parts if p.kind == "lit")

    @cached_property
    def anchor_words(self) -> frozenset[str]:
        """Words of the template's literal text that any message it produces must contain.

        Words of optional and repeated parts are left out: a message may lack them.
        """
        words: set[str] = set()
        parts = self.template.parts
        depth = 0
        for i, part in enumerate(parts):
            if part.kind in OPENERS:
                depth += 1
            elif part.kind in MARKERS:
                depth -= 1
            if part.kind != "lit" or depth:
                continue
            tokens = part.text.split()
            if i > 0 and tokens and not part.text[:1].isspace():
                tokens = tokens[1:]  # glued to the placeholder before it
            if i + 1 < len(parts) and tokens and not part.text[-1:].isspace():
                tokens = tokens[:-1]
            words.update(tokens)
        return frozenset(words)

    @cached_property
    def fuzzy_key(self) -> str:
        """The skeleton as fuzzy matching sees it, placeholders dropped."""
        return skeleton_key(self.template)


@dataclass(frozen=True)
class Match:
    entry: Entry
    score: float
    how: str  # "template" or "fuzzy"


@dataclass(frozen=True)
class Query:
    """What a user pasted: a message, or a whole traceback."""

    message: str
    exc_class: str | None = None
    jax_frames: tuple[tuple[str, int], ...] = field(default=())


def parse_query(text: str) -> Query:
    """Read a bare message, `ValueError: message`, or a traceback ending in one.

    Raises:
        QueryTooLongError: the text is longer than MAX_QUERY_CHARS.
    """
    if len(text) > MAX_QUERY_CHARS:
        raise QueryTooLongError(len(text), MAX_QUERY_CHARS)
    lines = text.strip("\n").splitlines()
    frames = []
    last_frame = -1
    for i, line in enumerate(lines):
        found = FRAME.search(line)
        if found:
            last_frame = i
            path = _jax_relative(found["file"])
            if path:
                frames.append((path, int(found["line"])))
    rest = lines[last_frame + 1:] if last_frame >= 0 else lines
    for i, line in enumerate(rest):
        head = EXCEPTION_LINE.match(line)
        if head and (last_frame < 0 or not line.startswith(" ")):
            message = "\n".join([head["msg"] or "", *rest[i + 1:]]).strip()
            return Query(message, head["cls"].rpartition(".")[2], tuple(frames))
    return Query("\n".join(line for line in rest if not line.startswith("    ")).strip() or text.strip(),
                 None, tuple(frames))


def _jax_relative(file: str) -> str | None:
    marker = "/jax/"
    index = file.rfind(marker)
    if index < 0 or "/jaxlib/" in file[index:]:
        return None
    return file[index + 1:]


def normalize(text: str) -> str:
    """The text fuzzy matching compares: values dropped, whitespace folded, lower case."""
    return " ".join(VALUES.sub(" ", text).split()).lower()


def skeleton_key(template: Template) -> str:
    """A template's skeleton as fuzzy matching sees it: placeholders and values dropped."""
    return normalize(template.skeleton.replace("{}", " "))


class LookupIndex:
    """Every error id of the catalogue with its newest template, ready to match messages."""

    def __init__(self, entries: list[Entry], raised: frozenset[str] = frozenset()) -> None:
        self.entries = entries
        self.raised = raised  # error ids seen raising at run time: a case reproduced them or a JAX test
        self._skeleton_keys = [e.fuzzy_key for e in entries]
        self._example_keys = [key for e in entries for key in e.examples]
        self._example_entry = [i for i, e in enumerate(entries) for _ in e.examples]

    @classmethod
    def from_session(cls, session: Session) -> LookupIndex:
        """The index of the catalogue a session reads: each error id at its newest occurrence."""
        snapshots = ordered_snapshots(session)
        position_of = {s.id: i for i, s in enumerate(snapshots)}
        newest: dict[str, tuple[int, int, str]] = {}
        for error_id, site_id, path, snapshot_id in session.execute(
            select(Occurrence.error_id, Occurrence.site_id, Occurrence.path, Occurrence.snapshot_id)
            .where(Occurrence.error_id.is_not(None))
        ):
            position = position_of[snapshot_id]
            if error_id not in newest or position > newest[error_id][0]:
                newest[error_id] = (position, site_id, path)
        sites = {s.id: s for s in _sites(session, [v[1] for v in newest.values()])}
        wording = worded_messages(session)
        observed = observed_messages(session)
        entries = []
        for error_id, (position, site_id, path) in sorted(newest.items()):
            site, snapshot = sites[site_id], snapshots[position]
            template = as_raised(Template.from_json(site.template_parts), site.exc_class,
                                 wording.get(snapshot.id, Wording()))
            entries.append(make_entry(error_id, site, template, path, snapshot.label, observed.get(error_id, ())))
        return cls(entries, frozenset(observed))

    def lookup(self, query: Query | str, *, limit: int = 5) -> list[Match]:
        """The best-scoring cards for a message, best first.

        Raises:
            QueryTooLongError: the message is longer than MAX_QUERY_CHARS.
        """
        if isinstance(query, str):
            query = parse_query(query)
        if len(query.message) > MAX_QUERY_CHARS:
            raise QueryTooLongError(len(query.message), MAX_QUERY_CHARS)
        message = query.message
        words = frozenset(message.split())
        matches: dict[str, Match] = {}
        for entry in self.entries:
            if not entry.literal_length or not entry.anchor_words <= words:
                continue
            if entry.regex.fullmatch(message):
                coverage = min(1.0, entry.literal_length / max(1, len(message.replace(" ", ""))))
                matches[entry.error_id] = Match(entry, TEMPLATE_BASE + COVERAGE_WEIGHT * coverage, "template")
        for index, ratio in self._fuzzy(normalize(message), limit * FUZZY_CANDIDATES):
            entry = self.entries[index]
            score = FUZZY_CEILING * ratio / 100
            if score >= FUZZY_FLOOR and entry.error_id not in matches:
                matches[entry.error_id] = Match(entry, score, "fuzzy")
        ranked = [self._adjust(m, query) for m in matches.values()]
        ranked.sort(key=lambda m: (-m.score, m.entry.error_id))
        return ranked[:limit]

    def _fuzzy(self, key: str, count: int) -> list[tuple[int, float]]:
        """The `count` entries whose best ratio over their fuzzy keys is highest: (index, ratio), ties in entry order.

        Two bounded searches give exactly that: an entry among the `count` best has its best key
        among the `count` best skeletons, or among the `count * EXAMPLES_PER_ERROR` best examples
        (rapidfuzz orders equal ratios by position, which is entry order in both lists).
        """
        best: dict[int, float] = {}
        found = [(index, ratio) for _k, ratio, index in process.extract(
            key, self._skeleton_keys, scorer=fuzz.token_set_ratio, limit=count)]
        if self._example_keys:
            found += [(self._example_entry[i], ratio) for _k, ratio, i in process.extract(
                key, self._example_keys, scorer=fuzz.token_set_ratio, limit=count * EXAMPLES_PER_ERROR)]
        for index, ratio in found:
            best[index] = max(ratio, best.get(index, 0.0))
        return sorted(best.items(), key=lambda item: (-item[1], item[0]))[:count]

    def _adjust(self, match: Match, query: Query) -> Match:
        score = match.score
        if query.exc_class and match.entry.exc_class.rpartition(".")[2] != query.exc_class:
            score -= CLASS_PENALTY
        if query.jax_frames and match.entry.path == query.jax_frames[-1][0]:
            score += PATH_BONUS
        if match.entry.error_id in self.raised:
            score += RAISED_BONUS
        return Match(match.entry, round(min(score, 1.0), 4), match.how)


def make_entry(error_id: str, site: RaiseSite, template: Template, path: str, snapshot_label: str,
               observed: Iterable[str]) -> Entry:
    """An error as lookup sees it: its newest raise site, its message as raised, where and in which snapshot.

    Parameters:
        template: the site's template as `as_raised` words it.
        observed: the messages the error was seen raising.
    """
    return Entry(error_id, site.exc_class or site.exc_expr, template, path, site.lineno, snapshot_label,
                 _examples(observed, template))


def open_index(engine: Engine) -> LookupIndex:
    """The lookup index of the catalogue in `engine`, read as one state of it."""
    with Session(engine) as session:
        consistent_reads(session)
        return LookupIndex.from_session(session)


def _examples(messages: Iterable[str], template: Template) -> tuple[str, ...]:
    """Distinct fuzzy keys of observed messages, other than the skeleton's own, in a stable order."""
    own = skeleton_key(template)
    keys = sorted({key for m in messages if (key := normalize(m)) and key != own}, key=lambda k: (len(k), k))
    return tuple(keys[:EXAMPLES_PER_ERROR])


def _sites(session: Session, ids: list[int]) -> list[RaiseSite]:
    found: list[RaiseSite] = []
    for chunk in chunks(ids):
        found.extend(session.scalars(select(RaiseSite).where(RaiseSite.id.in_(chunk))))
    return found
