"""What the search page needs to run `jax-errors lookup` in the browser: api/lookup.json.

The record carries lookup.py's own patterns, constants and per-error data (regex, anchor words,
fuzzy key), so static/lookup.js ports only the control flow, never a pattern or a number. Python
regexes are translated to JavaScript (`u` flag) with the same meaning: `\\s`, `\\d`, `\\w` and `.`
become the classes Python gives them, `(?P<name>` becomes `(?<name>`, and identity escapes that
JavaScript rejects become plain characters.
"""

from __future__ import annotations

import contextlib
import re
import sys
import unicodedata
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import orjson

from jax_errors.cache import cache_folder, keep
from jax_errors.db.name_history import NameHistory
from jax_errors.exceptions import RegexTranslationError
from jax_errors.lookup import index as lookup
from jax_errors.lookup import names, origin
from jax_errors.lookup.index import Entry, LookupIndex, make_entry
from jax_errors.site_gen.catalogue import Catalogue
from jax_errors.site_gen.links import card_path
from jax_errors.site_gen.output import generator_fingerprint
from jax_errors.site_gen.records import SCHEMA_VERSION
from jax_errors.template import ADJACENT_PLACEHOLDERS, HOLE_MARK, TEMPLATE_FLAGS, TITLE_LENGTH, held_title

LOOKUP_SCHEMA = "lookup.schema.json"
LOOKUP_PATH = "api/lookup.json"
# What the releases say of modules and names (`lookup.names`): fetched only for a message saying one is missing.
NAMES_SCHEMA = "names.schema.json"
NAMES_PATH = "api/names.json"
ENTRY_FIELDS = ("id", "class", "title", "path", "line", "regex", "literal_length", "anchors", "anchor_key", "raised",
                "live_id", "until", "lead", "group")
CODED = ("class", "path", "until")  # entry fields that lookup.json writes as indexes into their distinct values
# Template regexes meet whitespace only through \s and `.` (their literal words hold none), so
# lookup.js turns each of Python's whitespace characters into a space before testing a message,
# and \s becomes a plain space there: exact, and a third of the size of the full class.
_TEMPLATE_SPACE = " "
_JS_SYNTAX = set("^$\\.*+?()[]{}|/")
_QUANTIFIER = re.compile(r"\{(?P<low>\d*)(?P<rest>,\d*)?\}")
_GROUP_STARTS = ("(?:", "(?=", "(?!", "(?<=", "(?<!")
_NAMED_BACKREFERENCE = re.compile(r"\(\?P=(?P<name>\w+)\)")
# Runs of characters that read alike in both languages: outside a class, and inside one.
_PLAIN = re.compile(r"[^\\\[\].$(){}]+")
_PLAIN_IN_CLASS = re.compile(r"[^\\\]]+")
# Python's \w on str: letters, digits and the underscore, as the inside of a JavaScript class.
_WORD = "\\p{L}\\p{N}_"




def catalogue_index(catalogue: Catalogue) -> LookupIndex:
    """The lookup index of a loaded catalogue, made from its cards: what `build.index_from_session` reads."""
    entries = []
    for card in catalogue.sorted_cards():
        snapshot = card.history.last or catalogue.newest  # where its newest raise site stands
        entries.append(make_entry(card.id, card.site, card.template, card.location.path, snapshot.label,
                                  catalogue.observed.get(card.id, ()), live_id=card.live_id,
                                  ends_as=card.history.ended_as, made_class=card.made_class))
    return LookupIndex(entries + list(catalogue.earlier), frozenset(catalogue.observed), catalogue.names)


def lookup_record(catalogue: Catalogue, index: LookupIndex | None = None) -> dict[str, Any]:
    """api/lookup.json: one entry per error of the catalogue, by id (fuzzy ties go to the first).

    Parameters:
        index: the catalogue's index (`catalogue_index`), when the caller made it already.
    """
    index = catalogue_index(catalogue) if index is None else index
    titles = {key: card.title for key, card in catalogue.cards.items()}
    regexes = KeptRegexes()
    record = {
        "schema_version": SCHEMA_VERSION,
        "scoring": {
            "template_base": lookup.TEMPLATE_BASE, "weak_template_base": lookup.WEAK_TEMPLATE_BASE,
            "strong_literal": lookup.STRONG_LITERAL, "coverage_weight": lookup.COVERAGE_WEIGHT,
            "fuzzy_ceiling": lookup.FUZZY_CEILING, "fuzzy_floor": lookup.FUZZY_FLOOR,
            "xla_fuzzy_floor": lookup.XLA_FUZZY_FLOOR, "fuzzy_candidates": lookup.FUZZY_CANDIDATES,
            "fuzzy_shortlist": lookup.FUZZY_SHORTLIST, "path_bonus": lookup.PATH_BONUS,
            "raised_bonus": lookup.RAISED_BONUS, "class_penalty": lookup.CLASS_PENALTY,
            "sentences_min_words": lookup.SENTENCES_MIN_WORDS, "sentence_ends": lookup.SENTENCE_ENDS,
            "first_line_ceiling": lookup.FIRST_LINE_CEILING, "cut_min_words": lookup.CUT_MIN_WORDS,
            "cut_marks": list(lookup.CUT_MARKS),
            "match_floor": lookup.MATCH_FLOOR, "confidence": lookup.CONFIDENCE, "limit": 5,
        },
        "messages": {"xla": _sentence(origin.NO_SITE, "."), "python": _sentence(origin.NO_RAISE, "."),
                     "numpy": _sentence(origin.NO_NUMPY_RAISE, "."),
                     "none": _sentence(origin.NO_CARD, "; try the full-text search below.")},
        "syntax": {
            "space": python_space(),
            "frame": js_regex(lookup.FRAME.pattern, lookup.FRAME.flags),
            "exception_line": "^(?:" + js_regex(lookup.EXCEPTION_LINE.pattern, lookup.EXCEPTION_LINE.flags) + ")",
            "values": js_regex(lookup.VALUES.pattern, lookup.VALUES.flags),
            "status_prefix": js_regex(origin.STATUS_PREFIX.pattern, origin.STATUS_PREFIX.flags),
            "cpp_words": js_regex(origin.CPP_WORDS.pattern, origin.CPP_WORDS.flags),
            "runtime_classes": sorted(origin.RUNTIME_CLASSES),
            "python_words": "^(?:" + js_regex(origin.PYTHON_WORDS.pattern, origin.PYTHON_WORDS.flags) + ")$",
            "python_classes": sorted(origin.PYTHON_CLASSES),
            "numpy_words": "^(?:" + js_regex(origin.NUMPY_WORDS.pattern, origin.NUMPY_WORDS.flags) + ")$",
            "numpy_classes": sorted(origin.NUMPY_CLASSES),
            "no_attribute": "^(?:" + js_regex(names.NO_ATTRIBUTE.pattern, names.NO_ATTRIBUTE.flags) + ")",
            "no_module": "^(?:" + js_regex(names.NO_MODULE.pattern, names.NO_MODULE.flags) + ")",
            "cannot_import": "^(?:" + js_regex(names.CANNOT_IMPORT.pattern, names.CANNOT_IMPORT.flags) + ")",
            "hole_mark": HOLE_MARK,
            "adjacent_placeholders": js_regex(ADJACENT_PLACEHOLDERS.pattern, ADJACENT_PLACEHOLDERS.flags),
            "title_length": TITLE_LENGTH,
        },
        "count": len(index.entries),
        "card_href": card_path("{id}"),
        "names_href": NAMES_PATH,
        **_columns([_entry(entry, key, cut_key, index, titles, regexes)
                    for entry, key, cut_key in zip(index.entries, index.anchor_key, index.cut_key, strict=True)]),
        "wording_of": {entry.error_id: entry.wording_of for entry in index.entries if entry.wording_of},
        # The card of each name a module removed, by the attribute (`LookupIndex.removed_names`).
        "removed_names": index.removed_names,
        # The words each raise adds to a caught exception's message, by its id (`LookupIndex.wrappers`).
        "wrappers": index.wrappers,
        # A removed card's lineage, by the id it ended as (`Entry.lineage_key`): the cards of one make one result.
        "lineage": {entry.error_id: entry.ends_as for entry in index.entries
                    if entry.live_id is None and entry.ends_as},
        # Only the sites of a message several raise are told apart by their words (`said.worded_site`): a site passing
        # none is left out, one whose words are not known is null.
        "said": {entry.error_id: None if entry.said is None else list(entry.said)
                 for entry in index.entries if entry.said != () and index.siblings(entry)},
        "first_lines": _first_lines(index, regexes),
        "cuts": _cuts(index),
        "fuzzy": {"keys": index.fuzzy_keys, "owners": index.fuzzy_owners, "common": sorted(index.common_words)},
    }
    regexes.keep()
    return record


def names_record(catalogue: Catalogue) -> dict[str, Any]:
    """api/names.json: what the crawled releases say of each public module and name some of them lacked
    (`db.name_history`), read by the search page for a message saying one is missing (`lookup.names`)."""
    history = catalogue.names or NameHistory(tuple(s.label for s in reversed(catalogue.snapshots))).as_json()
    return {"schema_version": SCHEMA_VERSION, **history}


def _entry(entry: Entry, anchor_key: str | None, cut_key: str | None, index: LookupIndex, titles: Mapping[str, str],
           regexes: KeptRegexes) -> dict[str, Any]:
    regex = regexes.of(entry) if entry.literal_length else None  # lookup never tries a template without literal text
    siblings = index.siblings(entry)
    title = titles.get(entry.error_id, entry.template.text)
    # An entry whose held text the file carries (`cuts`) is sent no title that the page makes from it (`held_title`).
    if cut_key is not None and title == held_title(entry.held):
        title = None
    return {
        "id": entry.error_id, "class": entry.exc_class, "title": title,
        "path": entry.path, "line": entry.lineno,
        "regex": regex, "literal_length": entry.literal_length,
        "anchors": " ".join(sorted(entry.anchor_words)), "anchor_key": anchor_key,
        "raised": entry.error_id in index.raised, "live_id": entry.live_id, "until": entry.until,
        "lead": entry.lead if entry.card_id == entry.error_id else None,  # only a card is ranked by it
        "group": siblings[0].error_id if siblings else None,
    }


def _first_lines(index: LookupIndex, regexes: KeptRegexes) -> dict[str, list]:
    """The heads of templates that go on past them (`Entry.head`: a first line, or a first sentence), as columns
    over those entries only: `entry` is each one's index into the entries, `sentence` 1 for a first sentence."""
    found = [(i, entry.head) for i, entry in enumerate(index.entries) if entry.head]
    return {"entry": [i for i, _ in found], "regex": [regexes.of(head) for _, head in found],
            "anchors": [" ".join(sorted(head.anchor_words)) for _, head in found],
            "anchor_key": [index.line_anchor_key[i] for i, _ in found],
            "literal_length": [head.literal_length for _, head in found],
            "sentence": [int(index.entries[i].head_how == "first-sentence") for i, _ in found]}


def _cuts(index: LookupIndex) -> dict[str, list]:
    """The held text (`Entry.held`) of the templates a message cut short may begin (`cut_fit`: those with a cut key),
    as columns over those entries only: `entry` is each one's index into the entries, `key` its cut key."""
    found = [(i, key) for i, key in enumerate(index.cut_key) if key is not None]
    return {"entry": [i for i, _ in found], "held": [index.entries[i].held for i, _ in found],
            "key": [key for _, key in found]}


def _columns(entries: list[dict[str, Any]]) -> dict[str, Any]:
    """The entries as columns (`entries`: a list of values per field, one for each entry): the search page reads
    the file before its first result, and a list of values parses faster than objects naming every field. A field
    of few distinct values (CODED) lists each once (`values`), and its column their indexes (null stays null)."""
    columns: dict[str, list] = {field: [entry[field] for entry in entries] for field in ENTRY_FIELDS}
    values: dict[str, list] = {}
    for field in CODED:
        values[field] = sorted({v for v in columns[field] if v is not None})
        code = {v: i for i, v in enumerate(values[field])}
        columns[field] = [None if v is None else code[v] for v in columns[field]]
    return {"entries": columns, "values": values}


class KeptRegexes:
    """The browser's regex of each template, kept in the cache folder from one build to the next.

    Translating every template takes a quarter of the time of `lookup.json`, though a new commit
    changes few. The file is named by the code that translates (`generator_fingerprint`), so
    another jax-errors translates afresh; it holds every template that code translated, so that
    catalogues built in turn (a test's and the site's) do not undo each other's.
    """

    def __init__(self) -> None:
        self.path = cache_folder("lookup") / f"regexes-{generator_fingerprint()[:16]}.json"
        self.known = _read_regexes(self.path)
        self.made: dict[str, str] = {}

    def of(self, entry: Entry) -> str:
        key = orjson.dumps(entry.template.to_json()).decode()
        regex = self.known.get(key) or self.made.get(key)
        if regex is None:
            regex = self.made[key] = "^(?:" + js_regex(entry.pattern, TEMPLATE_FLAGS, space=_TEMPLATE_SPACE) + ")$"
        return regex

    def keep(self) -> None:
        """Keep the translations made, beside those kept; those of any other code go."""
        if self.made:
            for other in self.path.parent.glob("regexes-*.json"):
                if other != self.path:
                    with contextlib.suppress(OSError):  # a folder that cannot be written keeps what it has
                        other.unlink()
            keep(self.path, orjson.dumps({**self.known, **self.made}, option=orjson.OPT_SORT_KEYS))


def _read_regexes(path: Path) -> dict[str, str]:
    try:
        kept = orjson.loads(path.read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return {}
    if not isinstance(kept, dict) or not all(isinstance(v, str) for v in kept.values()):
        return {}
    return kept


# Regex translation ---------------------------------------------------------------------------

@cache
def python_space() -> str:
    """Python's `\\s` on str (what `str.isspace` accepts) as a JavaScript class.

    Made once for each Python and Unicode version and kept in the cache folder: going through every
    code point takes longer than the rest of a small lookup index.
    """
    kept = cache_folder("lookup") / f"space-{sys.version_info[0]}.{sys.version_info[1]}-{unicodedata.unidata_version}"
    try:
        text = kept.read_text(encoding="ascii")
        if text.startswith("[") and text.endswith("]"):
            return text
    except (OSError, ValueError):
        pass
    made = _python_space()
    keep(kept, made.encode("ascii"))
    return made


def _python_space() -> str:
    spaces = [c for c in range(sys.maxunicode + 1) if chr(c).isspace()]
    ranges: list[list[int]] = []
    for c in spaces:
        if ranges and ranges[-1][1] == c - 1:
            ranges[-1][1] = c
        else:
            ranges.append([c, c])
    return "[" + "".join(_code(a) if a == b else f"{_code(a)}-{_code(b)}" for a, b in ranges) + "]"


def _sentence(verdict: str, end: str) -> str:
    """A verdict of `origin` as the search page says it: capitalized, then `end`."""
    return verdict[:1].upper() + verdict[1:] + end


def js_regex(pattern: str, flags: int = 0, *, space: str | None = None) -> str:
    """The JavaScript source (for `new RegExp(source, "u")`) matching what `pattern` matches in Python.

    Parameters:
        pattern: a Python str pattern.
        flags: its compiled flags; only DOTALL changes the translation.
        space: what Python's `\\s` becomes outside a class (default: the exact class).
    Raises:
        RegexTranslationError: the pattern uses syntax with no translation here.
    """
    if flags & ~(re.DOTALL | re.UNICODE):
        raise RegexTranslationError(f"unsupported flags {flags:#x} in {pattern!r}")
    out: list[str] = []
    i, in_class = 0, False
    while i < len(pattern):
        if plain := (_PLAIN_IN_CLASS if in_class else _PLAIN).match(pattern, i):  # copied as they are
            out.append(plain.group())
            i = plain.end()
            continue
        c = pattern[i]
        if c == "\\":
            out.append(_escape(pattern[i + 1], in_class, space, pattern))
            i += 2
            continue
        if in_class:
            out.append(c)
            in_class = c != "]"
        elif c == "[":
            out.append(c)
            in_class = True
            if pattern.startswith("^", i + 1):
                out.append("^")
                i += 1
            if pattern.startswith("]", i + 1):  # a leading ] is literal in Python
                out.append("\\]")
                i += 1
        elif c == ".":
            out.append("[^]" if flags & re.DOTALL else "[^\\n]")
        elif c == "$":
            out.append("(?=\\n?$)")  # Python's $ also matches before a final newline
        elif c == "(" and pattern.startswith("(?P<", i):
            out.append("(?<")
            i += 4
            continue
        elif c == "(" and (backreference := _NAMED_BACKREFERENCE.match(pattern, i)):
            out.append(f"\\k<{backreference['name']}>")
            i = backreference.end()
            continue
        elif c == "(" and pattern.startswith("(?", i) and not pattern.startswith(_GROUP_STARTS, i):
            raise RegexTranslationError(f"unsupported group at {i} in {pattern!r}")
        elif c == "{" and (quantifier := _quantifier(pattern, i)):
            out.append(quantifier[0])
            i += quantifier[1]
            continue
        elif c in "{}]":
            out.append("\\" + c)
        else:
            out.append(c)
        i += 1
    return "".join(out)


def _quantifier(pattern: str, i: int) -> tuple[str, int] | None:
    """`{m,n}` at `i` in JavaScript's spelling and its length, or None where Python reads `{` literally."""
    found = _QUANTIFIER.match(pattern, i)
    if not found or found.group() in ("{}", "{,}"):
        return None
    return "{" + (found["low"] or "0") + (found["rest"] or "") + "}", len(found.group())  # {,n} is {0,n}


def _escape(e: str, in_class: bool, space: str | None, pattern: str) -> str:
    if e in "sS":
        if in_class and e == "S":
            raise RegexTranslationError(f"\\S inside a class in {pattern!r}")
        exact = python_space()
        if e == "S":
            return "[^" + exact[1:]
        if in_class:
            return exact[1:-1]
        return space or exact
    if e == "d":
        return "\\p{Nd}"
    if e == "D":
        return "\\P{Nd}"
    if e == "w":
        return _WORD if in_class else f"[{_WORD}]"
    if e == "W" and not in_class:
        return f"[^{_WORD}]"
    if e in "ntrfv":
        return "\\" + e
    if e.isalnum() or e == "_":
        raise RegexTranslationError(f"unsupported escape \\{e} in {pattern!r}")
    return _literal(e, in_class)


def _literal(c: str, in_class: bool) -> str:
    if c in _JS_SYNTAX or c == "-" and in_class:
        return "\\" + c
    if not c.isprintable() or c.isspace():
        return _code(ord(c))
    return c


def _code(point: int) -> str:
    return f"\\u{{{point:x}}}"
