"""Find the card for a message a user got: templates as regexes first, fuzzy matching after.

This module needs no database (`build` makes an index from one), so that a stored index loads fast.

Every wording of every crawled snapshot is matched, and a wording that is no longer raised leads
to the card of the error it became (its lineage followed forward), saying up to which snapshot it
was worded so. Sites that raise the same class with the same template give one result naming them
all; a traceback's frames pick the site, or else the words a raise passes beyond the template (`said`).

A message that a template fully matches scores 0.9 to 1.0 (more literal text matched, higher).
A message whose first line, or whole text, fits the head of a template that goes on (its first line
or first sentence: a long message pasted by its first line, or quoted up to a sentence's end) scores
up to 0.85 before the bonuses below. A message cut short (an issue's title, a log's line: `... the
de-optimized funct`) fits a template whose messages begin with it (`cut_fit`), scored as its head
would be, or as the whole template when it ends partway through one of the template's words. A
reworded message (another jax
version, or a template with opaque pieces) falls back to fuzzy matching on the skeleton, and on
messages the error was seen raising (by a reproduction case or a JAX test), and scores below
0.9. Below MATCH_FLOOR nothing is shown: no card matches.

Both searches look only where the message's words point: a template is tried when the rarest of
the words it must contain is in the message, a skeleton when it shares enough uncommon words.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import os
import pickle
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any

from rapidfuzz import fuzz

from jax_errors.exceptions import QueryTooLongError
from jax_errors.lookup.names import NO_ATTRIBUTE, name_said
from jax_errors.lookup.origin import looks_raised_in_xla, looks_worded_elsewhere, without_status
from jax_errors.lookup.said import said_words, worded_site
from jax_errors.lookup.wrapped import words_after_caught
from jax_errors.template import (
    HOLE_MARK,
    TEMPLATE_FLAGS,
    WORD_CHARACTER,
    LiteralRun,
    Template,
    accepts_any_text,
    first_line,
    first_sentence,
    folded,
    literal_runs,
    required_words,
    spells_words,
    template_pattern,
    without_appended,
)

if TYPE_CHECKING:
    from jax_errors.db.models import RaiseSite

# A pasted traceback of a few hundred frames fits; a megabyte of text is no message (and costs seconds).
MAX_QUERY_CHARS = 100_000
# Messages an error was seen raising that fuzzy matching compares too, per error.
EXAMPLES_PER_ERROR = 3
# A template match scores TEMPLATE_BASE plus COVERAGE_WEIGHT times the share of the message it spells out,
# when its literal text is at least STRONG_LITERAL characters long. A shorter one proves less (`{a} != {b}`
# fits many messages): its base falls toward WEAK_TEMPLATE_BASE in proportion.
TEMPLATE_BASE = 0.9
WEAK_TEMPLATE_BASE = 0.5
STRONG_LITERAL = 40
COVERAGE_WEIGHT = 0.1
FUZZY_CEILING = 0.85
FUZZY_FLOOR = 0.5
# A message whose first line, or whole text, fits the head of a template that goes on (`Entry.head`: its first line
# or first sentence) scores that head's template score times FIRST_LINE_CEILING: as much as a message that is a
# skeleton's first sentences.
FIRST_LINE_CEILING = FUZZY_CEILING
# The fewest words a template's head (first line or sentence) must hold to be matched alone.
FIRST_LINE_MIN_WORDS = 4
# A message cut short fits a template whose messages begin with it (`cut_fit`) when it holds its literal text through
# the first letter of this many words or more; an entry is tried when the message holds the words standing alone among
# its first CUT_MIN_WORDS - 1 (its `cut_words`; found by their rarest). An ellipsis at its end (`CUT_MARKS`: GitHub cuts
# an issue's long title so) is no part of it.
CUT_MIN_WORDS = FIRST_LINE_MIN_WORDS
CUT_MARKS = ("…", "...")
# A word of a template's held text (`Entry.held`): a run of characters other than a space or a placeholder.
HELD_WORD = re.compile(f"[^ {HOLE_MARK}]+")
# ... and for a message bearing XLA's marks (see `origin`).
XLA_FUZZY_FLOOR = 0.8
PATH_BONUS = 0.05
# Between sites with the same words, one seen raising (a reproduction or a JAX test) is the likelier: the other may be
# dead code or a rarely taken path.
RAISED_BONUS = 0.02
CLASS_PENALTY = 0.1
# Fuzzy candidates scored per card asked for: a template match may take one of their places.
FUZZY_CANDIDATES = 4
# A message of at least this many words that a fuzzy key begins with, cut at the end of a sentence, is that key's
# message quoted in part, its later sentences left out: it fits the key fully.
SENTENCES_MIN_WORDS = 4
SENTENCE_ENDS = ".!?"
# A skeleton of fewer words is not matched fuzzily: any message holding them (`tpu`) would score 100.
FUZZY_MIN_WORDS = 3
# Fuzzy keys scored per message: those sharing the most uncommon words with it, ties to the first.
FUZZY_SHORTLIST = 64
# A word in more than this share of the fuzzy keys (`the`, `must`) does not shortlist a key, unless it is in
# COMMON_WORD_MIN keys or fewer: in a catalogue of a few dozen errors, every word is in 2% of them.
COMMON_WORD_SHARE = 0.02
COMMON_WORD_MIN = 10
# A removed error leads to a live one of its file and class whose skeleton is this alike (difflib's ratio),
# or to one of its file raising another class (a check given its own exception class) this alike.
RESEMBLANCE = 0.6
RESEMBLANCE_OTHER_CLASS = 0.9
# ... and, of none there, to one of its class anywhere whose message opens with at least this many of its words.
OPENING_MIN_WORDS = 6
# A class JAX defines, by its dotted path (builtins are named bare; `e.with_traceback` is no class).
JAX_CLASS = re.compile(r"[A-Za-z_][\w.]*\.[A-Z]\w*")
OPENING_WORD = re.compile(r"[^\W_]+")
# Scores of at least HIGH are high confidence, of at least MEDIUM medium, lower ones low (README "Lookup").
CONFIDENCE = {"high": 0.9, "medium": 0.75}
# Results scoring below this are not shown (see README "Lookup" for the calibration).
MATCH_FLOOR = 0.6
# How much of a card's leading words ranks results of one score (`Entry.lead`).
LEAD_CHARS = 80
FRAME = re.compile(r'File "(?P<file>[^"]+)", line (?P<line>\d+)')
# How a result found by the name a message says a module lacks is found (`LookupIndex._removed_name`).
REMOVED_NAME = "removed-name"
# How a result is found that is the card of the message a removed raise added words to (`LookupIndex._held`).
HELD = "held"
EXCEPTION_LINE = re.compile(r"^(?P<cls>[A-Za-z_][\w.]*(?:Error|Exception|Exit|Interrupt|Warning|Iteration))(?::\s?(?P<msg>.*))?$")
DOTTED_NAME = re.compile(r"[A-Za-z_][\w.]*")
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
    # The live error this wording leads to: itself while raised (or the raise handling its class, `through_handlers`);
    # None once removed.
    live_id: str | None = None
    until: str | None = None  # a wording no longer raised: the newest snapshot that raised it
    # A removed wording whose lineage went on before it was removed: the id it ended as (`history.lineage_end`).
    ends_as: str | None = None
    handles: tuple[str, ...] = ()  # of a raise in an `except` clause, the classes it handles, by name (not stored)
    wording_of: str | None = None  # of an earlier wording made by other modules (`build.earlier_wordings`), its error
    # The words the raise passes beyond its template (`said.said_words`; None: not known): which of the sites of one
    # message raised it.
    said: tuple[str, ...] | None = ()
    # Of a name a module removed (an entry of its deprecation table, `crawler.deprecation_tables`), the attribute read
    # (`jax.tree_map`): the check is that name's alone, and no other error's words lead on from it.
    attribute: str | None = None
    # Of a raise adding words to the message of an exception it caught (`wrapped.words_after_caught`), those words,
    # folded: what its messages hold after the caught one's (not stored: the index keeps them, `LookupIndex.wrappers`).
    wraps: str | None = None

    @property
    def card_id(self) -> str:
        """The card a match of this wording shows: the live error's, or its own once it was removed."""
        return self.live_id or self.error_id

    @property
    def lineage_key(self) -> str:
        """Of a card, what its lineage is known by: matches of cards of one key make one result.

        A live card is its own, and so leads every earlier wording of its lineage to one result. A
        removed lineage is known by the id it ended as, so the wordings it had make one result too:
        `pmap requires a leading axis to map over` (up to jax 0.1.26, then with a full stop up to
        0.1.41, then `pmap got value with no leading axis to map over: ...` up to 0.1.65) is one
        check, not three results. The best-scoring wording's card is the one shown.
        """
        return self.card_id if self.live_id is not None else self.ends_as or self.error_id

    @property
    def group_key(self) -> tuple[str, str]:
        """Sites with one key raise messages no reader can tell apart: one lookup result names them all.

        The key is the template with its placeholders emptied (`Template.skeleton`): `Differentiation
        rule for '{primitive}' not implemented` and `... for '{_prim}' ...` word one message. A
        placeholder written `{name!r}` counts as one in quotes, the repr of the name it most often is:
        `module {module!r} has no attribute {name!r}` (deprecations.py) and `module '{package_name}'
        has no attribute '{name}'` (lazy_loader.py) both word `module 'jax' has no attribute 'partial'`.
        The repr of another value has no quotes, and only the `!r` site words it; the result still
        names both.
        """
        return self.template.quoted_skeleton, self.exc_class.rpartition(".")[2]

    def row(self) -> tuple:
        """The entry as plain values (what a stored index keeps): `Entry.from_row` makes it again."""
        return (self.error_id, self.exc_class, self.template.parts, self.template.forms, self.path, self.lineno,
                self.snapshot, self.examples, self.live_id, self.until, self.ends_as, self.wording_of, self.said,
                self.attribute)

    @classmethod
    def from_row(cls, row: tuple) -> Entry:
        (error_id, exc_class, parts, forms, path, lineno, snapshot, examples, live_id, until, ends_as, wording_of,
         said, attribute) = row
        return cls(error_id, exc_class, Template(parts, forms), path, lineno, snapshot, examples, live_id, until,
                   ends_as, wording_of=wording_of, said=said, attribute=attribute)

    @cached_property
    def regex(self) -> re.Pattern[str]:
        return re.compile(self.pattern, TEMPLATE_FLAGS)

    def matches(self, text: str) -> bool:
        """Whether the template's regex matches `text` whole: a folded message, or one cut short and completed by
        `cut_fit`, which may end in a space. A text lacking the literal words of each of the regex's sequences
        (`literal_runs`) is told apart first without compiling it: a process that looks up one message
        (`jax-errors lookup`, an excepthook) compiles the regex of few of its candidates."""
        return any(run.held_by(text) for run in self.literal_runs) and self.regex.fullmatch(text) is not None

    @cached_property
    def literal_runs(self) -> tuple[LiteralRun, ...]:
        return literal_runs(self.template)

    @cached_property
    def pattern(self) -> str:
        """The regex's source, which the browser's index takes without compiling it here."""
        return template_pattern(self.template)

    @cached_property
    def literal_length(self) -> int:
        """The length of the template's literal text; 0 when its regex matches any text, which then proves nothing."""
        if accepts_any_text(self.template):
            return 0
        return sum(len(p.text.strip()) for p in without_appended(self.template).parts if p.kind == "lit")

    @cached_property
    def anchor_words(self) -> frozenset[str]:
        """Words of the template's literal text that any message it produces must contain (`required_words`)."""
        return required_words(self.template)

    @cached_property
    def head(self) -> Entry | None:
        """The entry as the head of its template reads: its first line, when the template goes on past it, else its
        first sentence, when more follow; None without one, or when it holds fewer than FIRST_LINE_MIN_WORDS words
        any message has. A message pasted by its first line (`first_line_of`), or quoted up to a sentence's end,
        fits it."""
        head = first_line(self.template) or first_sentence(self.template)
        if head is None:
            return None
        entry = dataclasses.replace(self, template=head)
        return entry if entry.literal_length and len(entry.anchor_words) >= FIRST_LINE_MIN_WORDS else None

    @cached_property
    def head_how(self) -> str:
        """How a match of the head is named: `first-line` or `first-sentence`."""
        return "first-line" if first_line(self.template) is not None else "first-sentence"

    @cached_property
    def held(self) -> str:
        """The text every message of the template holds, placeholders and optional, repeated or alternative parts
        written HOLE_MARK (`Template.held_text`): what completes a message cut short (`cut_fit`)."""
        return self.template.held_text(group=HOLE_MARK)

    @cached_property
    def held_words(self) -> list[re.Match[str]]:
        """The words of the held text's literal text (`HELD_WORD`, holding a letter or a digit), in order."""
        return [word for word in HELD_WORD.finditer(self.held) if spells_words(word.group())]

    @cached_property
    def cut_words(self) -> frozenset[str]:
        """The words any message cut short that fits the template holds (`cut_fit`): of its held text's first
        CUT_MIN_WORDS - 1 words, those standing alone (between spaces, or at an end); none when its literal text
        is empty, or holds fewer than CUT_MIN_WORDS words."""
        if not self.literal_length or len(self.held_words) < CUT_MIN_WORDS:
            return frozenset()
        held = self.held
        return frozenset(word.group() for word in self.held_words[:CUT_MIN_WORDS - 1]
                         if held[word.start() - 1:word.start()] in ("", " ")
                         and held[word.end():word.end() + 1] in ("", " "))

    @cached_property
    def holes(self) -> tuple[int, ...]:
        """Where the held text writes a placeholder or a part some messages lack (HOLE_MARK)."""
        return tuple(i for i, character in enumerate(self.held) if character == HOLE_MARK)

    @cached_property
    def cut_from(self) -> int:
        """The least length of a beginning of the held text that a message cut short fits (`cut_fit`): through the
        first letter or digit of its CUT_MIN_WORDS-th word (`cut_words` is empty with fewer)."""
        word = self.held_words[CUT_MIN_WORDS - 1]
        return word.start() + WORD_CHARACTER.search(word.group()).start() + 1

    @cached_property
    def lead(self) -> str:
        """The literal text every message of the template starts with (up to its first placeholder or optional
        part), folded, at most LEAD_CHARS characters: of two results of one score, the one whose lead
        the message follows further comes first."""
        return folded(leading_text(self.template))[:LEAD_CHARS]

    @cached_property
    def fuzzy_key(self) -> str:
        """The skeleton as fuzzy matching sees it, placeholders dropped."""
        return skeleton_key(self.template)


@dataclass(frozen=True)
class Match:
    """One result: a card, how well the message fits it, and how it was found."""

    entry: Entry  # the card's error: a live one, or a removed one
    score: float
    # "template", "first-line" or "first-sentence" (the kind of head that fit: `Entry.head`), "cut" (`cut_fit`),
    # "fuzzy", REMOVED_NAME (the name a message says a module lacks, `LookupIndex._removed_name`), or HELD (the message
    # a removed raise added words to, `LookupIndex._held`)
    how: str
    matched: Entry | None = None  # the wording that matched, when it is an earlier one of the card's lineage
    sites: tuple[Entry, ...] = ()  # every site raising the same message (the card's among them), when several

    @property
    def worded_until(self) -> str | None:
        """The newest snapshot that worded the message as pasted, when the card's error now reads otherwise."""
        return self.matched.until if self.matched else None

    @property
    def confidence(self) -> str:
        """`high`, `medium` or `low`: the band of CONFIDENCE its score falls in."""
        return next((band for band, floor in CONFIDENCE.items() if self.score >= floor), "low")

    @property
    def removed_after(self) -> str | None:
        """The newest snapshot that raised the card's error, when no crawled snapshot since raises it."""
        return self.entry.until if self.entry.live_id is None else None


@dataclass(frozen=True)
class Query:
    """What a user pasted: a message, or a whole traceback."""

    message: str
    exc_class: str | None = None
    jax_frames: tuple[tuple[str, int], ...] = field(default=())


def unquoted(message: str) -> str:
    """A message pasted as a JSON string (in double quotes, its line breaks written `\\n`, as a log or a
    notebook's JSON holds it) is the text it encodes; any other message is itself."""
    if len(message) >= 2 and message[0] == message[-1] == '"':
        try:
            value = json.loads(message)
        except ValueError:
            return message
        if isinstance(value, str):
            return value
    return message


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
    """A template's skeleton as fuzzy matching sees it: placeholders and values dropped, and the lines a class
    appends to every message (`without_appended`), which a pasted message often leaves out."""
    return normalize(without_appended(template).skeleton.replace("{}", " "))


class LookupIndex:
    """Every error id of the catalogue with its newest template, ready to match messages."""

    def __init__(self, entries: list[Entry], raised: frozenset[str] = frozenset(),
                 names: dict[str, Any] | None = None) -> None:
        entries = through_handlers(with_resembling_successors(entries))
        siblings: dict[tuple[str, str], list[int]] = {}
        for index, entry in enumerate(entries):
            if entry.card_id == entry.error_id:
                siblings.setdefault(entry.group_key, []).append(index)
        anchor_key = anchor_keys([entry.anchor_words for entry in entries])
        by_anchor, unanchored = anchored([i for i, entry in enumerate(entries) if entry.literal_length], anchor_key)
        with_line = [i for i, entry in enumerate(entries) if entry.head]
        line_key: list[str | None] = [None] * len(entries)
        for index, key in zip(with_line, anchor_keys([entries[i].head.anchor_words for i in with_line]), strict=True):
            line_key[index] = key
        by_line_anchor, unanchored_lines = anchored(with_line, line_key)
        cut_key = anchor_keys([entry.cut_words for entry in entries])
        by_cut_anchor, _ = anchored(range(len(entries)), cut_key)  # an entry of no cut words is never tried cut
        keys, owners = fuzzy_keys(entries)
        self._fill(entries, [e.error_id for e in entries], raised, {
            "siblings": [group for group in siblings.values() if len(group) > 1], "anchor_key": anchor_key,
            "by_anchor": by_anchor, "unanchored": unanchored, "line_anchor_key": line_key,
            "by_line_anchor": by_line_anchor, "unanchored_lines": unanchored_lines, "cut_key": cut_key,
            "by_cut_anchor": by_cut_anchor, "fuzzy_keys": keys,
            "fuzzy_owners": owners, "common_words": sorted(common_words(keys)),
            "removed_names": removed_name_cards(entries),
            "wrappers": {entry.error_id: entry.wraps for entry in entries if entry.wraps},
            "names": names,
        })

    def _fill(self, entries: Sequence[Entry], ids: list[str], raised: frozenset[str], prepared: dict) -> None:
        self.entries: Sequence[Entry] = entries
        self.raised = raised  # error ids seen raising at run time: a case reproduced them or a JAX test
        self._position = {error_id: i for i, error_id in enumerate(ids)}
        self._siblings = {i: tuple(group) for group in prepared["siblings"] for i in group}  # by entry position
        self.anchor_key = prepared["anchor_key"]
        self._by_anchor = prepared["by_anchor"]
        self._unanchored = prepared["unanchored"]
        self.line_anchor_key = prepared["line_anchor_key"]
        self._by_line_anchor = prepared["by_line_anchor"]
        self._unanchored_lines = prepared["unanchored_lines"]
        self.cut_key = prepared["cut_key"]
        self._by_cut_anchor = prepared["by_cut_anchor"]
        self.fuzzy_keys, self.fuzzy_owners = prepared["fuzzy_keys"], prepared["fuzzy_owners"]
        self.common_words = frozenset(prepared["common_words"])
        self.removed_names: dict[str, int] = prepared["removed_names"]
        self.wrappers: dict[str, str] = prepared["wrappers"]  # by error id, the words each adds (`Entry.wraps`)
        self._names: dict[str, Any] | bytes | None = prepared["names"]  # `names`
        self._postings: dict[str, list[int]] = {}
        for index, key in enumerate(self.fuzzy_keys):
            for word in sorted(set(key.split()) - self.common_words):
                self._postings.setdefault(word, []).append(index)

    def prepared(self) -> dict:
        """What the index derived from its entries, as plain values: `from_prepared` takes it instead of deriving it."""
        groups = dict.fromkeys(self._siblings.values())
        return {"siblings": [list(group) for group in groups], "anchor_key": self.anchor_key,
                "by_anchor": self._by_anchor, "unanchored": self._unanchored,
                "line_anchor_key": self.line_anchor_key, "by_line_anchor": self._by_line_anchor,
                "unanchored_lines": self._unanchored_lines, "cut_key": self.cut_key,
                "by_cut_anchor": self._by_cut_anchor, "fuzzy_keys": self.fuzzy_keys,
                "fuzzy_owners": self.fuzzy_owners, "common_words": sorted(self.common_words),
                "removed_names": self.removed_names, "wrappers": self.wrappers, "names": self.names}

    @classmethod
    def from_prepared(cls, rows: Sequence, make: Callable[[Any], Entry], ids: list[str], raised: frozenset[str],
                      prepared: dict) -> LookupIndex:
        """An index made without deriving anything: entries from their rows when first asked for (`make`), and
        what `prepared()` gave. For an index read from a file at the first exception of a process."""
        index = cls.__new__(cls)
        index._fill(_LazyEntries(rows, make), ids, raised, prepared)
        return index

    @property
    def names(self) -> dict[str, Any] | None:
        """What the crawled releases say of each module and name some lacked (`db.name_history`, as JSON), if known.
        A stored index keeps it pickled apart, unpickled when first asked for: only a message saying a name is missing
        needs it."""
        if isinstance(self._names, bytes):
            self._names = pickle.loads(self._names)
        return self._names

    def __getstate__(self) -> dict:
        """What a stored index keeps: each entry's row (`Entry.row`) pickled on its own, unpickled and made an entry
        again only when a lookup needs it. A process that reads the index for one lookup reads a few dozen of its
        thousands of entries; unpickling every row with the index took most of its reading. The names' history
        (`names`) is pickled apart too."""
        names = self._names if isinstance(self._names, bytes) else pickle.dumps(self._names, pickle.HIGHEST_PROTOCOL)
        return {**self.__dict__, "_names": names,
                "entries": [pickle.dumps(entry.row(), pickle.HIGHEST_PROTOCOL) for entry in self.entries]}

    def __setstate__(self, state: dict) -> None:
        rows = state["entries"]
        if rows and not isinstance(rows[0], bytes):  # a file of another shape fails here, not at a later lookup
            raise TypeError(f"a stored index's entries are pickled rows, not {type(rows[0]).__name__}")
        self.__dict__.update(state, entries=_LazyEntries(rows, _entry_from_pickled_row))

    def entry(self, error_id: str) -> Entry | None:
        position = self._position.get(error_id)
        return None if position is None else self.entries[position]

    def name_said(self, query: Query | str) -> str | None:
        """What the crawled releases say of the module or name a message says is missing (`names.name_said`)."""
        query = parse_query(query) if isinstance(query, str) else query
        return name_said(self.names, first_line_of(without_status(unquoted(query.message))))

    def lookup(self, query: Query | str, *, limit: int = 5) -> list[Match]:
        """The best-scoring cards for a message, best first; none scoring below MATCH_FLOOR.

        Raises:
            QueryTooLongError: the message is longer than MAX_QUERY_CHARS.
        """
        if isinstance(query, str):
            query = parse_query(query)
        if len(query.message) > MAX_QUERY_CHARS:
            raise QueryTooLongError(len(query.message), MAX_QUERY_CHARS)
        query = dataclasses.replace(query, message=unquoted(query.message))
        found: dict[int, tuple[float, str]] = {}
        for message in dict.fromkeys((query.message, without_status(query.message))):
            words = frozenset(message.split())
            text = folded(message)
            for index in _candidates(self._by_anchor, self._unanchored, words):
                entry = self.entries[index]
                if index not in found and entry.anchor_words <= words and entry.matches(text):
                    found[index] = (template_score(entry, message), "template")
        # A template's head (`Entry.head`) is tried on the message's first line, then on the whole message.
        for line in dict.fromkeys(text for message in (query.message, without_status(query.message))
                                  for text in (first_line_of(message), message.strip())):
            words = frozenset(line.split())
            text = folded(line)
            for index in _candidates(self._by_line_anchor, self._unanchored_lines, words):
                entry = self.entries[index]
                head = entry.head
                if index not in found and head.anchor_words <= words and head.matches(text):
                    found[index] = (FIRST_LINE_CEILING * template_score(head, line), entry.head_how)
        # The interpreter's and NumPy's own words are no raise of jax, and they are short and alike: none that a
        # template does not fit, whole or by its first line, stands for them. A message such words fit whole is no
        # beginning of another (NumPy's `operands could not be broadcast together with shapes (3,) (4,)` of jax
        # 0.1.43's, which went on `and with the config option ...`).
        foreign = looks_worded_elsewhere(query)
        # A message cut short: the beginning of a template's messages.
        cut_messages = dict.fromkeys(without_cut_mark(m) for m in (query.message, without_status(query.message)))
        for message in () if foreign else cut_messages:
            text = folded(message)
            words = frozenset(text.split())
            for index in _candidates(self._by_cut_anchor, [], words):
                entry = self.entries[index]
                if index not in found and entry.cut_words <= words and (fit := cut_fit(entry, text)):
                    literal, within_word = fit
                    found[index] = ((1.0 if within_word else FIRST_LINE_CEILING) * literal_score(literal, message),
                                    "cut")
        if foreign:
            return self._results(found, query, limit)
        # XLA's own words are no Python raise either: only a close wording may stand for them.
        floor = XLA_FUZZY_FLOOR if looks_raised_in_xla(query) else FUZZY_FLOOR
        # The message, then its first line (a long message's later lines may be another jax's, or a proposal's:
        # #5853 quotes a wording of `__index__`'s error that went on otherwise), scaled down as the head pass
        # scales a head's fit. A card keeps the better of its two fuzzy scores, and of a fuzzy score and a cut one.
        # Keyed by the text compared, so that a message of one line is compared once.
        message = without_status(query.message)
        ceilings = {normalize(message): FUZZY_CEILING}
        ceilings.setdefault(normalize(first_line_of(message)), FIRST_LINE_CEILING * FUZZY_CEILING)
        for key, ceiling in ceilings.items():
            for index, ratio in self._fuzzy(key, limit * FUZZY_CANDIDATES):
                score = ceiling * ratio / 100
                kept = found.get(index)
                if score >= floor and (kept is None or kept[1] in ("cut", "fuzzy") and kept[0] < score):
                    found[index] = (score, "fuzzy")
        return self._results(found, query, limit)

    def siblings(self, entry: Entry) -> tuple[Entry, ...]:
        """The sites raising the same message as this card's (itself among them), when there are several."""
        if entry.card_id != entry.error_id:
            return ()
        return tuple(self.entries[i] for i in self._siblings.get(self._position[entry.error_id], ()))

    def _fuzzy(self, key: str, count: int) -> list[tuple[int, float]]:
        """The `count` entries whose best ratio over their shortlisted fuzzy keys is highest: (index, ratio).

        Ties go to the first entry. Only the FUZZY_SHORTLIST keys sharing the most uncommon words
        with the message are scored: a key sharing none cannot score well.
        """
        shared: dict[int, int] = {}
        for word in set(key.split()) - self.common_words:
            for index in self._postings.get(word, ()):
                shared[index] = shared.get(index, 0) + 1
        shortlist = sorted(shared, key=lambda i: (-shared[i], i))[:FUZZY_SHORTLIST]
        best: dict[int, float] = {}
        for index in shortlist:
            ratio = fuzzy_ratio(key, self.fuzzy_keys[index])
            for owner in self.fuzzy_owners[index]:
                best[owner] = max(ratio, best.get(owner, 0.0))
        return sorted(best.items(), key=lambda item: (-item[1], item[0]))[:count]

    def _results(self, found: dict[int, tuple[float, str]], query: Query, limit: int) -> list[Match]:
        """Scores adjusted, wordings taken to their cards, the cards of one lineage made one result
        (`Entry.lineage_key`), and so are the sites of one message; the floor applied."""
        cards: dict[str, Match] = {}
        for index, (score, how) in sorted(found.items()):
            entry = self.entries[index]
            card = self.entry(entry.card_id) or entry
            match = Match(card, self._adjusted(score, card, entry, query), how, entry if card is not entry else None)
            if card.lineage_key not in cards or _better(match, cards[card.lineage_key]):
                cards[card.lineage_key] = match
        results: dict[tuple[str, str], Match] = {}
        for match in cards.values():
            key = match.entry.group_key
            if siblings := self.siblings(match.entry):
                match = Match(match.entry, match.score, match.how, match.matched, siblings)
            if key not in results or _better(match, results[key]):
                results[key] = match
        for key, match in results.items():
            site = (framed_site(match.sites, query.jax_frames)
                    or worded_site(_may_head(match), match.entry, query.message))
            if site not in (None, match.entry):
                results[key] = Match(site, match.score, match.how, match.matched, match.sites)
        # At one score, a live card before a retired one (today's error is the likelier source), then one whose
        # current words fit before one reached through words it had once (two files raise `Argument '{}' of type
        # {} is not a valid JAX type.` today, and the one that raised it long ago no longer does), then the card
        # whose own words the message follows further (`... verifier errors:` and `... verifier errors.`).
        text = folded(query.message)
        ranked = sorted((m for m in results.values() if m.score >= MATCH_FLOOR),
                        key=lambda m: (-m.score, m.entry.until is not None, m.matched is not None,
                                       -shared_start(m.entry.lead, text), m.entry.error_id))
        if (held := self._held(query, ranked)) is not None:
            ranked = [held, *(m for m in ranked if not _names(m, held.entry))]
        if (named := self._removed_name(query, ranked)) is not None:
            ranked.insert(1, named)
        return ranked[:limit]

    def _held(self, query: Query, ranked: list[Match]) -> Match | None:
        """When the first result is a removed raise, with no raise succeeding it, that added words to the message of an
        exception it caught (`wrapped`), the card of the message the pasted one held before those words, if it is a
        live one found with medium confidence or more (CONFIDENCE): what the same mistake raises today. It comes
        before the other results, at the score of its own fit, which may be below the removed raise's: the message
        fits that raise better, and that raise is gone."""
        first = ranked[0] if ranked else None
        if first is None or first.entry.live_id is not None:
            return None
        message = folded(query.message)
        words = self.wrappers.get((first.matched or first.entry).error_id)
        end = message.find(words) if words else -1
        # The caught exception's class is not the message's: the held words are looked up with none.
        held = self.lookup(Query(message[:end]), limit=1) if end > 0 else []
        if not held or held[0].entry.live_id is None or held[0].score < CONFIDENCE["medium"]:
            return None
        return dataclasses.replace(held[0], how=HELD)

    def _removed_name(self, query: Query, ranked: list[Match]) -> Match | None:
        """Of a message saying a module lacks a name (`module 'jax' has no attribute 'tree_map'`), the card of that
        name's entry in the module's deprecation table (`Entry.attribute`), when it had one and no result is it: what
        the module said of the name while it kept it (`jax.tree_map was removed in JAX v0.6.0: use jax.tree.map
        ...`). It comes second, at the first result's score, after what fits the message itself (most often the raise
        of `module {module!r} has no attribute {name!r}`)."""
        said = NO_ATTRIBUTE.match(first_line_of(without_status(query.message)))
        index = self.removed_names.get(f"{said['module']}.{said['name']}") if said and ranked else None
        if index is None:
            return None
        card = self.entries[index]
        # Not when a result is that card already.
        if any(_names(m, card) for m in ranked):
            return None
        return Match(card, ranked[0].score, REMOVED_NAME)

    def _adjusted(self, score: float, card: Entry, wording: Entry, query: Query) -> float:
        """`score` of `card` reached through `wording` (its own, or an earlier one): a class the message
        names that neither raised costs CLASS_PENALTY (an old wording may have had another class)."""
        if query.exc_class and query.exc_class not in {c.exc_class.rpartition(".")[2] for c in (card, wording)}:
            score -= CLASS_PENALTY
        if query.jax_frames and card.path == query.jax_frames[-1][0]:
            score += PATH_BONUS
        if card.error_id in self.raised:
            score += RAISED_BONUS
        return round(min(score, 1.0), 4)


def template_score(entry: Entry, message: str) -> float:
    """How much a full match of the entry's template says: its literal text's length, and its share of the message.

    A short template says as much as a long one when it spells out most of the message (`unbound
    axis name: i`); one that leaves nearly all of it to placeholders (`{a} != {b}`) says little.
    """
    return literal_score(entry.literal_length, message)


def literal_score(literal_length: int, message: str) -> float:
    """How much a match spelling out `literal_length` characters of `message` as literal text says
    (`template_score`). A match spells no more than the message holds: a template whose words are all in parts
    some messages lack fits an empty message (a class pasted alone), which holds none of them."""
    letters = len(message.replace(" ", ""))
    spelled = min(literal_length, letters)
    coverage = spelled / max(1, letters)
    strength = max(coverage, min(1.0, spelled / STRONG_LITERAL))
    return WEAK_TEMPLATE_BASE + (TEMPLATE_BASE - WEAK_TEMPLATE_BASE) * strength + COVERAGE_WEIGHT * coverage


def without_cut_mark(message: str) -> str:
    """A message without the ellipsis (one of CUT_MARKS) that ends it, when one does: the mark of text cut short."""
    stripped = message.strip()
    for mark in CUT_MARKS:
        if stripped.endswith(mark):
            return stripped[:-len(mark)].strip()
    return message


def cut_fit(entry: Entry, text: str) -> tuple[int, bool] | None:
    """How a message cut short (`text`, folded) fits the template: as the beginning of one of its messages, holding
    CUT_MIN_WORDS words of its literal text or more, and not all of it. The length of the literal text it holds, and
    whether it ends partway through one of the template's words (`... the de-optimized funct`: no full message of
    the template ends so); None when it fits no such way.

    The message may end in literal text, at a word its last word begins, or in a placeholder's value. It fits
    when, completed by the rest of the template's held text (`Entry.held`, placeholders and parts some messages
    lack left empty), the template matches it: the longest such beginning counts. So a message ending inside a
    part some messages lack (optional, repeated, or one of several) fits no point, and one ending in a value glued
    to the word after it (`{i}th`) is not taken to end within a word.

    What a fit needs is checked first, as plain text: the message begins with the template's leading literal text
    (or is a beginning of it); it ends with the literal text between the point where it ends and the placeholder
    before; it holds the literal text before the placeholder it ends in.
    """
    held, least = entry.held, entry.cut_from
    lead = held.partition(HOLE_MARK)[0].rstrip()
    if not (text.startswith(lead) or lead.startswith(text)):
        return None
    tail = text.rpartition(" ")[2]
    within_text = set()
    start = held.find(tail, max(0, least - len(tail))) if tail else -1
    while start >= 0:
        if start == 0 or held[start - 1] == " ":
            within_text.add(start + len(tail))
        start = held.find(tail, start + 1)
    after_holes = {i + 1 for i in entry.holes if i >= least}
    for point in sorted(within_text | after_holes, reverse=True):
        rest = held[point:]
        if rest.startswith(HOLE_MARK):  # completed as the point after that mark is, tried before
            continue
        if point in within_text:
            before = held[held.rfind(HOLE_MARK, 0, point) + 1:point].lstrip()
            if not text.endswith(before):
                continue
        elif held[held.rfind(HOLE_MARK, 0, point - 1) + 1:point - 1].strip() not in text:
            continue
        if point >= least and rest and entry.matches(text + rest.replace(HOLE_MARK, "")):
            within_word = point in within_text and spells_words(tail[-1]) and spells_words(rest[0])
            return len(held[:point].replace(HOLE_MARK, "").replace(" ", "")), within_word
    return None


def shared_start(lead: str, text: str) -> int:
    """How many characters `text` begins with of `lead`."""
    return len(os.path.commonprefix([lead, text]))


def fuzzy_ratio(key: str, other: str) -> float:
    """How alike a message's fuzzy key is to a catalogued one, 0-100: the mean of rapidfuzz's token-set and
    token-sort ratios.

    The token-set ratio alone is 100 whenever one holds every word of the other, so a short
    skeleton (`encountered an unexpected tracer.`) would tie with the message's own; the token-sort
    ratio weighs in the words one has and the other lacks.

    A message that is the key's first sentences (`Pure callbacks do not support transpose.`, of a
    skeleton that goes on `Please use ...`) fits it fully: 100.
    """
    if first_sentences(key, other):
        return 100.0
    return (fuzz.token_set_ratio(key, other) + fuzz.token_sort_ratio(key, other)) / 2


def first_sentences(key: str, other: str) -> bool:
    """Whether `key` is `other` cut after a sentence: SENTENCES_MIN_WORDS words or more (any run between spaces,
    a lone `.` left where a value was dropped too), ending in one of SENTENCE_ENDS, and followed in `other` by a
    space."""
    return (key[-1:] in SENTENCE_ENDS and other.startswith(key + " ")
            and len(key.split(" ")) >= SENTENCES_MIN_WORDS)


def _entry_from_pickled_row(row: bytes) -> Entry:
    return Entry.from_row(pickle.loads(row))


class _LazyEntries(Sequence[Entry]):
    """A stored index's entries, each made from its row the first time it is asked for."""

    def __init__(self, rows: Sequence, make: Callable[[Any], Entry]) -> None:
        self._rows = rows
        self._make = make
        self._made: dict[int, Entry] = {}

    def __len__(self) -> int:
        return len(self._rows)

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        entry = self._made.get(index)
        if entry is None:
            entry = self._made[index] = self._make(self._rows[index])
        return entry


def framed_site(sites: Sequence[Entry], frames: Sequence[tuple[str, int]]) -> Entry | None:
    """Of the sites raising one message, the one a traceback's frames pass through (the innermost such frame)."""
    for frame in reversed(frames):
        for site in sites:
            if (site.path, site.lineno) == tuple(frame):
                return site
    return None


def _names(match: Match, card: Entry) -> bool:
    """Whether a result is a card already: one of its lineage (itself among them), or one of the sites it is one of."""
    return card.lineage_key == match.entry.lineage_key or card.error_id in (site.error_id for site in match.sites)


def _may_head(match: Match) -> list[Entry]:
    """The sites of a result that may head it in its stead by their words: those raised today, when it is."""
    return [site for site in match.sites if site.until is None or match.entry.until is not None]


def _better(match: Match, other: Match) -> bool:
    """Of two results for one card or one message: the higher score, then a site raised today (of the sites of one
    message, the one named first: `iteration over a 0-d array` was raised in `parallel.py` until jax 0.1.16, and is
    in `array.py` now), then a current wording, then the smaller id."""
    return (-match.score, match.entry.until is not None, match.matched is not None, match.entry.error_id) < (
        -other.score, other.entry.until is not None, other.matched is not None, other.entry.error_id)


def with_resembling_successors(entries: list[Entry]) -> list[Entry]:
    """Removed errors led to the live error of their file that reads most like them, if alike enough: of
    their own class, or nearly word for word of another (`ValueError` became `IndivisibleError`).

    The lineage links an error to the one it became when one replaced it between two snapshots; a
    check dropped while a similar one elsewhere in its file already raised (`Too many indices:
    2-dimensional array indexed with 3 regular indices` once, `Too many indices: array is
    2-dimensional, but 3 were indexed` now) has no such successor. Its wording still leads a user
    to the error raised today.

    A wording whose lineage went on before it was removed leads where its last wording
    (`Entry.ends_as`) leads: that one reads like today's error, the first may not.

    Of neither, one raising the same class of JAX's own that opens with the same words (`same_opening`):
    such a class names one kind of error wherever it is raised (`ConcretizationTypeError`'s message, made
    by `raise_concretization_error` in `jax/core.py` until jax 0.2.9, is raised in `jax/_src/core.py` today).

    A name a module removed (`Entry.attribute`) leads nowhere so, nor is it led to: `jax.tree_flatten was
    removed ...` reads like `jax.tree_leaves was removed ...`, and is another name's check.
    """
    live: dict[str, list[Entry]] = {}
    of_class: dict[str, list[Entry]] = {}
    for entry in entries:
        if entry.live_id == entry.error_id and entry.attribute is None:
            live.setdefault(entry.path, []).append(entry)
            if JAX_CLASS.fullmatch(entry.exc_class):
                of_class.setdefault(entry.exc_class.rpartition(".")[2], []).append(entry)
    resolved: dict[str, Entry] = {}
    for entry in entries:
        if entry.live_id is None and entry.until is not None and entry.attribute is None:
            alike = [(ratio, other) for other in live.get(entry.path, ())
                     if (ratio := difflib.SequenceMatcher(None, entry.fuzzy_key, other.fuzzy_key, autojunk=False)
                         .ratio()) >= (RESEMBLANCE if other.exc_class == entry.exc_class else RESEMBLANCE_OTHER_CLASS)]
            best = max(alike, key=lambda pair: (pair[0], pair[1].error_id), default=None)
            if best is not None:
                entry = dataclasses.replace(entry, live_id=best[1].error_id)
        resolved[entry.error_id] = entry

    def opening_alike(entry: Entry) -> Entry:
        if (entry.live_id is not None or entry.until is None or entry.attribute is not None
                or not JAX_CLASS.fullmatch(entry.exc_class)):
            return entry
        same = same_opening(entry, of_class.get(entry.exc_class.rpartition(".")[2], []))
        return entry if same is None else dataclasses.replace(entry, live_id=same.error_id)

    # Lineage ends first (an error with no `ends_as`), so that the errors ending as them read them settled.
    for error_id, entry in resolved.items():
        if not entry.ends_as:
            resolved[error_id] = opening_alike(entry)
    for error_id, entry in resolved.items():
        end = resolved.get(entry.ends_as) if entry.live_id is None and entry.ends_as else None
        if end is not None and end.live_id is not None:
            resolved[error_id] = dataclasses.replace(entry, live_id=end.live_id)
        elif entry.ends_as:
            resolved[error_id] = opening_alike(entry)
    # A removed error's earlier wordings (`build.earlier_wordings`) lead where it now leads.
    for error_id, entry in resolved.items():
        target = resolved.get(entry.live_id) if entry.live_id not in (None, error_id) else None
        if target is not None and target.live_id not in (None, target.error_id):
            resolved[error_id] = dataclasses.replace(entry, live_id=target.live_id)
    return list(resolved.values())


def same_opening(entry: Entry, others: list[Entry]) -> Entry | None:
    """Of `others`, the one whose message opens with the words `entry`'s opens with, OPENING_MIN_WORDS of them or
    more, up to the first placeholder of either (`opening_words`): the longest such opening, then the smallest id."""
    opening = opening_words(entry.template)
    shared = []
    for other in others:
        theirs = opening_words(other.template)
        length = min(len(opening), len(theirs))
        if length >= OPENING_MIN_WORDS and opening[:length] == theirs[:length]:
            shared.append((-length, other.error_id, other))
    return min(shared, key=lambda item: item[:2])[2] if shared else None


def opening_words(template: Template) -> list[str]:
    """The words a template's messages open with (`leading_text`), in lower case, punctuation left out."""
    return OPENING_WORD.findall(leading_text(template).lower())


def leading_text(template: Template) -> str:
    """The literal text every message of the template starts with: up to its first placeholder or optional part."""
    text = []
    for part in template.parts:
        if part.kind != "lit":
            break
        text.append(part.text)
    return "".join(text)


def through_handlers(entries: list[Entry]) -> list[Entry]:
    """A live error of no words whose class one `except` clause of the catalogue handles, raising another, leads
    to that raise, and so do the wordings leading to it.

    Such a class carries data from where a check fails to where its message is made: `matchaxis`
    raises `SpecMatchError(leaf, src, dst)`, and `vmap_f` catches it to raise `at vmap out_axes[0],
    got axis spec None but output was batched on axis 0`. That is what users read; the bare class is
    a card of no message (and `vmap has mapped output but out_axes is None`, the check's old wording,
    leads to it).

    A handler is a raise that stands right in the clause, with words of its own (so no redirect leads
    to another); one under an `if` in the clause is not counted, and when the clause first calls a
    check that may raise something else (`_BarrierAborted` in Pallas's interpreter), its own message
    is the fallback.
    """
    handlers: dict[str, list[Entry]] = {}
    for entry in entries:
        if entry.live_id == entry.error_id and entry.template.has_words:
            for name in entry.handles:
                if name != entry.exc_class.rpartition(".")[2]:  # one raising what it caught only adds to its data
                    handlers.setdefault(name, []).append(entry)
    handled = {}
    for entry in entries:
        if entry.live_id == entry.error_id and not entry.template.has_words:
            found = handlers.get(entry.exc_class.rpartition(".")[2], [])
            if len(found) == 1 and found[0] is not entry:
                handled[entry.error_id] = found[0].error_id
    return [dataclasses.replace(e, live_id=handled[e.live_id]) if e.live_id in handled else e for e in entries]


def handled_classes(site: RaiseSite) -> tuple[str, ...]:
    """The classes a raise in an `except` clause handles, by name: `batching.SpecMatchError` is `SpecMatchError`."""
    if site.guard_kind != "except" or not site.guard:
        return ()
    return tuple(sorted({name.rpartition(".")[2] for name in DOTTED_NAME.findall(site.guard)}))


def _candidates(by_anchor: dict[str, list[int]], unanchored: list[int], words: frozenset[str]) -> list[int]:
    """The entries whose rarest anchor word (`by_anchor`) is among `words`, and `unanchored`, in entry order."""
    candidates = set(unanchored)
    for word in words:
        candidates.update(by_anchor.get(word, ()))
    return sorted(candidates)


def anchored(indexes: Iterable[int], keys: Sequence[str | None]) -> tuple[dict[str, list[int]], list[int]]:
    """Entries (`indexes`) by their anchor key (`keys`, by entry), and those without one, in entry order."""
    by_anchor: dict[str, list[int]] = {}
    unanchored: list[int] = []
    for index in indexes:
        key = keys[index]
        if key is None:
            unanchored.append(index)
        else:
            by_anchor.setdefault(key, []).append(index)
    return by_anchor, unanchored


def removed_name_cards(entries: Sequence[Entry]) -> dict[str, int]:
    """The card of each name a module removed (`Entry.attribute`), by the attribute: the index of its entry, a card's
    (not an earlier wording's); of several, a live one first, then the end of a removed lineage (no `ends_as`: its
    last wording), then the smallest id."""
    found: dict[str, int] = {}

    def rank(entry: Entry) -> tuple:
        return entry.until is not None, entry.ends_as is not None, entry.error_id

    for index, entry in enumerate(entries):
        if entry.attribute is None or entry.card_id != entry.error_id:
            continue
        if entry.attribute not in found or rank(entry) < rank(entries[found[entry.attribute]]):
            found[entry.attribute] = index
    return dict(sorted(found.items()))


def first_line_of(message: str) -> str:
    """A message's first line that is not blank, without the whitespace at its ends."""
    lines = message.strip().splitlines()
    return lines[0].strip() if lines else ""


def anchor_keys(word_sets: list[frozenset[str]]) -> list[str | None]:
    """Each entry's rarest word of those it needs (`word_sets`, by entry: fewest entries need it; then the first in
    order), None without any."""
    frequency: dict[str, int] = {}
    for words in word_sets:
        for word in words:
            frequency[word] = frequency.get(word, 0) + 1
    return [min(words, key=lambda w: (frequency[w], w)) if words else None for words in word_sets]


def fuzzy_keys(entries: list[Entry]) -> tuple[list[str], list[list[int]]]:
    """The distinct fuzzy keys (skeletons and seen messages) of FUZZY_MIN_WORDS words or more, in entry order,
    and the entries owning each.

    A name a module removed (`Entry.attribute`) has none: its message is matched by its template alone. Every
    wording it had is in the catalogue, and another name's message fits it only by the words all such messages
    share (`jax.device_put_sharded is deprecated; use jax.device_put instead ...` fits `device_put_replicated`'s at
    0.82). Nor do the hundreds of them make the words of checks rarer (`common_words`)."""
    position: dict[str, int] = {}
    owners: list[list[int]] = []
    for index, entry in enumerate(entries):
        if entry.attribute is not None:
            continue
        for key in dict.fromkeys((entry.fuzzy_key, *entry.examples)):
            if len(key.split()) < FUZZY_MIN_WORDS:
                continue
            if key not in position:
                position[key] = len(owners)
                owners.append([])
            owners[position[key]].append(index)
    return list(position), owners


def common_words(keys: list[str]) -> frozenset[str]:
    """Words in more than COMMON_WORD_SHARE of the keys, and more than COMMON_WORD_MIN: too common to shortlist
    a key by."""
    frequency: dict[str, int] = {}
    for key in keys:
        for word in set(key.split()):
            frequency[word] = frequency.get(word, 0) + 1
    return frozenset(w for w, n in frequency.items() if n > max(COMMON_WORD_SHARE * len(keys), COMMON_WORD_MIN))


def make_entry(error_id: str, site: RaiseSite, template: Template, path: str, snapshot_label: str,
               observed: Iterable[str], *, live_id: str | None, ends_as: str | None = None,
               made_class: str | None = None) -> Entry:
    """An error as lookup sees it: its newest raise site, its message as raised, where and in which snapshot.

    Parameters:
        template: the site's template as `as_raised` words it.
        observed: the messages the error was seen raising.
        live_id: the live error it leads to (itself while raised, None once removed). Any other
            than itself makes `snapshot_label` the newest snapshot that raised it (`Entry.until`).
        ends_as: of a removed error, the id its lineage ended as (`history.lineage_end`).
        made_class: the class a function of the snapshot makes for the raise (`Wording.class_raised`).
    """
    return Entry(error_id, made_class or site.exc_class or site.exc_expr, template, path, site.lineno, snapshot_label,
                 _examples(observed, template), live_id, None if live_id == error_id else snapshot_label, ends_as,
                 handled_classes(site), said=said_words(site, template),
                 attribute=site.guard if site.guard_kind == "access" else None,
                 wraps=words_after_caught(site, template))


def _examples(messages: Iterable[str], template: Template) -> tuple[str, ...]:
    """Distinct fuzzy keys of observed messages, other than the skeleton's own, in a stable order."""
    own = skeleton_key(template)
    keys = sorted({key for m in messages if (key := normalize(m)) and key != own}, key=lambda k: (len(k), k))
    return tuple(keys[:EXAMPLES_PER_ERROR])
