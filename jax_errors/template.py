"""A message template: the literal text and placeholders of an exception's message, as every stage sees it.

The crawler rebuilds templates from JAX's source (`crawler.template_builder`); the database stores
them as JSON parts; reproduction and lookup match messages against them; the site shows them.
Literal text is kept verbatim; interpolated values keep their expression text
(`{x_aval.str_short(True)}`); pieces whose text cannot be known statically are opaque.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Literal, NamedTuple

PartKind = Literal["lit", "expr", "opaque", "opt_begin", "opt_end", "rep_begin", "rep_end"]
# Markers have no text. opt_begin/opt_end bracket parts that only some runs add (`msg += ...` inside an
# `if`); rep_begin/rep_end, parts that a loop may add any number of times (`msg.append(...)` in a `for`).
OPENERS = {"opt_begin": "opt_end", "rep_begin": "rep_end"}
MARKERS = frozenset(OPENERS) | frozenset(OPENERS.values())
TITLE_LENGTH = 120
HOLE_MARK = "…"  # a placeholder in a template's held text (`Template.held_text`)
ONE_OF = "one of {}"  # the text of the marker opening one of several alternatives (`alternatives`)
ONE_OF_NONE = " or none"  # added to it when a further alternative is no text
SHARED_LEAD_MIN_WORDS = 2  # the fewest leading words alternatives must share to title a template
ADJACENT_PLACEHOLDERS = re.compile(r"…(?:[^\w\s…]*…)+")
WORD_CHARACTER = re.compile(r"[^\W_]")  # a letter or a digit


class Part(NamedTuple):
    """One piece of a template: literal text, or a placeholder (its expression) or marker. A tuple: cheap to load."""

    kind: PartKind
    text: str


@dataclass(frozen=True)
class Template:
    """A message template: literal text and placeholders, in order."""

    parts: tuple[Part, ...]
    forms: frozenset[str] = frozenset()

    @property
    def text(self) -> str:
        """The template as shown to users: placeholders as `{expression}`."""
        return self._joined("{{{}}}")

    @property
    def skeleton(self) -> str:
        """The template with placeholders emptied and whitespace folded: what identifies a message."""
        return " ".join(self._joined("{{}}").split())

    @property
    def quoted_skeleton(self) -> str:
        """The skeleton with a placeholder converted by `!r` written `'{}'`, as the repr of a string reads."""
        return " ".join(self._joined("{{}}", repr_placeholder="'{{}}'").split())

    @property
    def title(self) -> str:
        """The text every message holds (not optional or repeated parts), placeholders as `…`, whitespace
        folded, cut at TITLE_LENGTH; empty if no words. Of a template that is one of several messages (optional
        parts side by side), the leading words they share, if any."""
        text = self._held_text()
        if not spells_words(text):  # placeholders and punctuation alone: no title
            text = _shared_lead([t._held_text() for t in self.split_alternatives()])
        return shortened(text, TITLE_LENGTH) if spells_words(text) else ""

    def _held_text(self) -> str:
        return placeholders_run_together(self.held_text())

    def held_text(self, group: str = "") -> str:
        """The text every message holds, each placeholder written HOLE_MARK, and each optional, repeated or
        alternative part (outermost) written `group`; whitespace folded."""
        depth, pieces = 0, []
        for p in self.parts:
            if p.kind in OPENERS and depth == 0:
                pieces.append(group)
            depth += 1 if p.kind in OPENERS else -1 if p.kind in MARKERS else 0
            if depth == 0 and p.kind not in MARKERS:
                pieces.append(p.text if p.kind == "lit" else HOLE_MARK)
        return " ".join("".join(pieces).split())

    def split_alternatives(self) -> list[Template]:
        """Of a template that is one choice of several whole messages (what `alternatives` builds, and nothing
        added), each choice's template, a choice that is itself such a template split in turn; else none.

        Optional parts that may stand together (`msg += ...` under two `if`s), an alternative of nothing,
        and alternatives added to more (`(a if x else b) + (c if y else d)`) are no such choice.
        """
        groups: list[Template] = []
        openers: set[str] = set()
        depth, start = 0, 0
        for index, part in enumerate(self.parts):
            if depth == 0:
                if part.kind != "opt_begin":
                    return []
                openers.add(part.text)
                start = index + 1
            depth += 1 if part.kind in OPENERS else -1 if part.kind in MARKERS else 0
            if depth == 0:
                groups.append(Template(self.parts[start:index]))
        if len(groups) < 2 or openers != {ONE_OF.format(len(groups))}:
            return []
        found: list[Template] = []
        for group in groups:
            found.extend(group.split_alternatives() or [group])
        return found

    def _joined(self, placeholder: str, *, repr_placeholder: str | None = None) -> str:
        """Literal text as is, each placeholder written as `placeholder.format(expression)` (one converted
        by `!r` as `repr_placeholder.format(expression)`, when given)."""
        return "".join(
            p.text if p.kind == "lit" else "" if p.kind in MARKERS
            else (repr_placeholder if repr_placeholder and p.text.endswith("!r") else placeholder).format(p.text)
            for p in self.parts
        )

    @property
    def has_words(self) -> bool:
        """Whether the source spells out any word of the message (punctuation alone, `{a} != {b}`, is none)."""
        return any(p.kind == "lit" and spells_words(p.text) for p in self.parts)

    @property
    def complete(self) -> bool:
        """True when every piece of the message is known: literal text or an interpolated value.

        A value raised as it is (`raise NotImplementedError(eqn.primitive)`) is complete: its message is
        that value's text, and the source has nothing more to say. A message passed in, a caught
        exception or an unknown call's result is an opaque piece, and leaves the template incomplete.
        """
        return bool(self.parts) and all(p.kind != "opaque" for p in self.parts)

    @property
    def spelled_out(self) -> bool:
        """Complete, with words: the source spells the whole message, values aside."""
        return self.complete and self.has_words

    def __add__(self, other: Template) -> Template:
        return Template(_merge(self.parts + other.parts), self.forms | other.forms)

    def with_form(self, form: str) -> Template:
        return Template(self.parts, self.forms | {form})

    def to_json(self) -> list[list[str]]:
        return [[p.kind, p.text] for p in self.parts]

    @classmethod
    def from_json(cls, data: list[list[str]]) -> Template:
        return cls(tuple(Part(kind, text) for kind, text in data))  # type: ignore[arg-type]


EMPTY = Template(())


def spells_words(text: str) -> bool:
    """Whether literal text (or a skeleton, its placeholders `{}`) holds a word: a letter or a digit."""
    return WORD_CHARACTER.search(text) is not None


def literal(text: str) -> Template:
    return Template((Part("lit", text),) if text else ())


def optional(template: Template) -> Template:
    """The same parts, marked as present in only some messages."""
    return _grouped(template, "opt_begin")


# The placeholder a class's wrapping message (`Wording`) holds where the message passed to the class goes: no
# Python expression reads so, so no message's own placeholder is taken for it.
WRAPPED = "<message>"
# The text of the marker opening the lines a wrapping class appends to every message (`wrapped_in`).
APPENDED = "appended by its class"


def wraps(template: Template) -> bool:
    """Whether a class's message wraps the one passed to it (`wrapped_in`): it holds a WRAPPED placeholder."""
    return Part("expr", WRAPPED) in template.parts


def wrapped_in(wrapper: Template, message: Template) -> Template:
    """`message` as a class that wraps it raises it: put where `wrapper` holds WRAPPED.

    What the wrapper adds after the message on lines of its own is optional here: every message has
    it, but a pasted one often stops before it (`_JAXErrorMixin`'s `See https://docs.jax.dev/...`
    line, under a traceback's last line).
    """
    index = wrapper.parts.index(Part("expr", WRAPPED))
    after = Template(wrapper.parts[index + 1:])
    if after.parts and after.parts[0].kind == "lit" and after.parts[0].text[:1] == "\n":
        after = _grouped(after, "opt_begin", APPENDED)
    joined = Template(wrapper.parts[:index]) + message + after
    return Template(joined.parts, message.forms)


def without_appended(template: Template) -> Template:
    """The template without the lines a wrapping class appends (`wrapped_in`): what the message itself says."""
    parts, depth = [], 0
    for part in template.parts:
        if depth or part == Part("opt_begin", APPENDED):
            depth += 1 if part.kind in OPENERS else -1 if part.kind in MARKERS else 0
            continue
        parts.append(part)
    return EMPTY + Template(tuple(parts), template.forms) if len(parts) < len(template.parts) else template


def alternatives(templates: list[Template]) -> Template:
    """One of several templates (branches of a conditional, returns of a helper): each an optional part, its
    opening marker's text `one of N` (`ONE_OF`), N the number of templates with parts, `or none` added when
    another is no text: so the parts say where one choice of N stands alone, and where it is added to more
    (`Template.split_alternatives`), and a template's regex admits one choice of them, not several."""
    result, choices = EMPTY, sum(1 for template in templates if template.parts)
    marker = ONE_OF.format(choices) + (ONE_OF_NONE if choices < len(templates) else "")
    for template in templates:
        result = result + _grouped(template, "opt_begin", marker)
    return Template(result.parts, result.forms | {"alternatives"})


def repeated(template: Template) -> Template:
    """The same parts, marked as present any number of times (none included)."""
    return _grouped(template, "rep_begin")


def _grouped(template: Template, opener: str, text: str = "") -> Template:
    if not template.parts:
        return template
    return Template((Part(opener, text), *template.parts, Part(OPENERS[opener], "")), template.forms)  # type: ignore[arg-type]


def _merge(parts: tuple[Part, ...]) -> tuple[Part, ...]:
    """Join neighbouring literal parts so equal templates have equal parts."""
    merged: list[Part] = []
    merge_into(merged, parts)
    return tuple(merged)


def merge_into(merged: list[Part], parts: tuple[Part, ...]) -> None:
    """Append `parts` to `merged` as `_merge` would join them: a sum built piece by piece in linear time."""
    for part in parts:
        if part.kind == "lit" and not part.text:
            continue
        if merged and part.kind == "lit" and merged[-1].kind == "lit":
            merged[-1] = Part("lit", merged[-1].text + part.text)
        else:
            merged.append(part)


def template_regex(template: Template) -> re.Pattern[str]:
    """A regex that matches any message the template can produce, whitespace-insensitively (`template_pattern`)."""
    return re.compile(template_pattern(template), TEMPLATE_FLAGS)


TEMPLATE_FLAGS = re.DOTALL


def template_pattern(template: Template) -> str:
    """The source of a regex (flags TEMPLATE_FLAGS) that matches any message the template can produce.

    Match it against `folded(message)`: the regex takes time linear in the message's length by
    construction, which lookup needs since it matches untrusted text. A placeholder between two
    literal stretches is matched by committing to the stretch's first occurrence (a lookahead read
    once, then its backreference), the way wildcard patterns are matched greedily: if any match
    exists, the one through the first occurrence does. Optional and repeated parts without a
    placeholder stay in their stretch as lazy groups; those with one are expanded into at most
    MAX_VARIANTS alternatives. Past that, and for a repetition's further rounds, such a part reads as
    a placeholder: the regex may then accept a little more than the template, never less.
    """
    names = (f"s{i}" for i in range(1_000_000))
    bodies = dict.fromkeys(_linear(items, names) for items in _variants(_nested(template.parts)))
    return r"\s*(?:" + "|".join(bodies) + r")\s*"


class LiteralRun(NamedTuple):
    """What one sequence of a template's regex (`template_pattern`) spells as literal text, as plain text: its words
    in order, and whether a message it matches (folded) begins with the first and ends with the last."""

    words: tuple[str, ...]
    starts: bool
    ends: bool

    def held_by(self, text: str) -> bool:
        """Whether `text` (its whitespace folded, or at least runs of it no word) holds the words so: what any text
        the sequence matches does. Whitespace at its ends is no matter, as the regex reads it."""
        if self.words and (self.starts and not text.lstrip().startswith(self.words[0])
                           or self.ends and not text.rstrip().endswith(self.words[-1])):
            return False
        position = 0
        for word in self.words:
            position = text.find(word, position)
            if position < 0:
                return False
            position += len(word)
        return True


def literal_runs(template: Template) -> tuple[LiteralRun, ...]:
    """The literal words of each sequence of the template's regex (`_variants`, as `template_pattern` makes it):
    a text that no run is held by (`LiteralRun.held_by`) the regex does not match, checked without compiling it.

    A sequence's words are those of its literal parts, in order; runs that stay in their stretch (optional or
    repeated, without a placeholder) and placeholders spell none. It begins (ends) with its first (last) word
    when a literal part holding words is its first (last) item, blank ones aside.
    """
    runs = []
    for variant in _variants(_nested(template.parts)):
        spelled = [item for item in variant if not (isinstance(item, Part) and item.kind == "lit"
                                                    and not item.text.strip())]
        words = tuple(word for item in spelled if isinstance(item, Part) and item.kind == "lit"
                      for word in item.text.split())
        starts = bool(spelled) and isinstance(spelled[0], Part) and spelled[0].kind == "lit"
        ends = bool(spelled) and isinstance(spelled[-1], Part) and spelled[-1].kind == "lit"
        runs.append(LiteralRun(words, starts, ends))
    return tuple(dict.fromkeys(runs))


def required_words(template: Template) -> frozenset[str]:
    """Words of the template's literal text that any message it produces must contain: not those of optional and
    repeated parts (a message may lack them), those every choice of several holds, and not a word glued to a
    placeholder or to a part that may differ (`{n}x` does not make `x` a word of the message)."""
    return frozenset(_required(_nested(template.parts), bounded_start=True, bounded_end=True))


# A sentence's end: `.`, `!` or `?` before a space, but not of an ellipsis or of `e.g.`, `i.e.`, `vs.`, `etc.`
SENTENCE_END = re.compile(r"(?<![.])(?<!\be\.g)(?<!\bi\.e)(?<!\bvs)(?<!\betc)[.!?](?=\s)", re.IGNORECASE)


def first_sentence(template: Template) -> Template | None:
    """The template's first sentence, when more follow: its parts up to the first sentence's end (`SENTENCE_END`)
    after some words, in literal text that every message holds (outside optional, repeated and alternative
    parts), the end's mark optional; None without one. A message quoted up to a sentence's end fits it, with its
    full stop or without."""
    for index, part in _held_literals(template):
        for end in SENTENCE_END.finditer(part.text):
            if not part.text[end.end():].strip() and index == len(template.parts) - 1:
                return None  # the last sentence
            head = template.parts[:index] + ((Part("lit", part.text[:end.start()]),) if end.start() else ())
            if any(WORD_CHARACTER.search(p.text) for p in head if p.kind == "lit"):  # `{x}. More`: no sentence yet
                mark = optional(Template((Part("lit", end.group()),))).parts
                return Template(head + mark, template.forms)
    return None


def first_line(template: Template) -> Template | None:
    """The template's first line, when it goes on past it: its parts up to the first line break in literal text
    that every message holds (outside optional, repeated and alternative parts); None without one.

    Of a template that is one choice of several messages (`Template.split_alternatives`: `prefix_errors`'
    makers word `pytree structure error: different types at key path\n ...` and three more), the first lines
    of its choices, as one choice of several; a choice of one line stands whole. None when no choice goes on.

    A user often has only a long message's first line at hand: an issue's title, a notebook's last line.
    """
    if choices := template.split_alternatives():
        heads = [first_line(choice) for choice in choices]
        if not any(heads):
            return None
        return Template(alternatives([head or choice for head, choice in zip(heads, choices)]).parts, template.forms)
    for index, part in _held_literals(template):
        # A message's leading line breaks start no line: nothing but whitespace before them.
        blank = all(p.kind == "lit" and not p.text.strip() for p in template.parts[:index])
        text = part.text.lstrip() if blank else part.text
        if "\n" in text:
            head, _, rest = text.partition("\n")
            if not rest.strip() and index == len(template.parts) - 1:
                return None  # a line break that ends the message starts no further line
            return Template(template.parts[:index] + ((Part("lit", head),) if head else ()), template.forms)
    return None


def _held_literals(template: Template) -> Iterator[tuple[int, Part]]:
    """The literal parts every message of the template holds (outside optional, repeated and alternative parts),
    with their indexes, in order."""
    depth = 0
    for index, part in enumerate(template.parts):
        depth += 1 if part.kind in OPENERS else -1 if part.kind in MARKERS else 0
        if depth == 0 and part.kind == "lit":
            yield index, part


def _required(items: list[Part | _Group], *, bounded_start: bool, bounded_end: bool) -> set[str]:
    words: set[str] = set()
    for index, item in enumerate(items):
        # What comes before and after the item parts words there: the message's ends, or blank literal text.
        starts = bounded_start if index == 0 else _ends_blank(items[index - 1], at_end=True)
        ends = bounded_end if index == len(items) - 1 else _ends_blank(items[index + 1], at_end=False)
        if not isinstance(item, Part):
            if item[0] == ONE_OF_GROUP:
                words |= set.intersection(*(_required(choice, bounded_start=starts, bounded_end=ends)
                                            for choice in item[1]))
            continue
        if item.kind != "lit":
            continue
        tokens = item.text.split()
        if not starts and tokens and not item.text[:1].isspace():
            tokens = tokens[1:]  # glued to what comes before it
        if not ends and tokens and not item.text[-1:].isspace():
            tokens = tokens[:-1]
        words.update(tokens)
    return words


def _ends_blank(item: Part | _Group, *, at_end: bool) -> bool:
    """Whether the item is literal text that ends (`at_end`) or starts with whitespace."""
    return isinstance(item, Part) and item.kind == "lit" and (item.text[-1:] if at_end else item.text[:1]).isspace()


def accepts_any_text(template: Template) -> bool:
    """Whether the template's regex (`template_pattern`) matches every text, so a match of it says nothing.

    That is when one of its sequences is placeholders and nothing else it must spell: a template that
    is a placeholder alone, or one of so many optional runs (an `if`/`elif` chain assigning the message)
    that past MAX_VARIANTS they read as placeholders.
    """
    return any(any(_is_hole(item) for item in variant)
               and all(_is_hole(item) or _may_be_absent(item) for item in variant)
               for variant in _variants(_nested(template.parts)))


def _shared_lead(texts: list[str]) -> str:
    """The leading words all `texts` share, then `…` for where they part; empty when they share fewer than
    SHARED_LEAD_MIN_WORDS (`The …` says nothing)."""
    if not texts:
        return ""
    split = [t.split() for t in texts]
    shared = 0
    while all(len(words) > shared and words[shared] == split[0][shared] for words in split):
        shared += 1
    return " ".join(split[0][:shared]) + " …" if shared >= SHARED_LEAD_MIN_WORDS else ""


def placeholders_run_together(held: str) -> str:
    """A held text (`Template.held_text`) with placeholders next to each other, or joined by punctuation alone, read
    as one: `….…` is `…`."""
    return ADJACENT_PLACEHOLDERS.sub(HOLE_MARK, held)


def held_title(held: str) -> str:
    """The title `Template.title` gives a template of this held text, when that text spells words: what the search
    page makes of the held text of an entry whose title it is not sent (`lookup.browser`)."""
    return shortened(placeholders_run_together(held), TITLE_LENGTH)


def shortened(text: str, limit: int) -> str:
    """`text`, or its first `limit - 1` characters and `…` when it is longer."""
    return text if len(text) <= limit else text[:limit - 1].rstrip() + "…"


def folded(message: str) -> str:
    """The message with each run of whitespace one space and none at its ends: what template regexes read."""
    return " ".join(message.split())


MAX_VARIANTS = 32
_HOLE = Part("opaque", "")
_Group = tuple[str, list]  # (opener, items): an optional or repeated run of parts; or (ONE_OF_GROUP, [choices' items])
ONE_OF_GROUP = "one_of"  # a run of sibling optional parts of which exactly one shows (`alternatives`)
_ONE_OF_MARKER = re.compile(r"one of (\d+)(?: or none)?")  # ONE_OF, and ONE_OF_NONE after it or not


def _nested(parts: tuple[Part, ...]) -> list[Part | _Group]:
    """The parts as a tree: an optional or repeated run becomes `(opener, [its items])`; N optional runs side by
    side, each opened by `one of N`, become one `(ONE_OF_GROUP, [each run's items])`."""
    stack: list[tuple[str | None, str, list]] = [(None, "", [])]
    for part in parts:
        if part.kind in OPENERS:
            stack.append((part.kind, part.text, []))
        elif part.kind in MARKERS:
            if len(stack) > 1:  # a closer without its opener is left out
                _close(stack)
        else:
            stack[-1][2].append(part)
    while len(stack) > 1:  # an opener never closed closes at the end
        _close(stack)
    return _choices(stack[0][2])


def _close(stack: list[tuple[str | None, str, list]]) -> None:
    kind, text, items = stack.pop()
    stack[-1][2].append((kind, _choices(items), text))


def _choices(items: list) -> list[Part | _Group]:
    """Items with each whole run of `one of N` optional parts (N of them, side by side, opened alike) made one
    choice of N; of N, or none, when the opener says so."""
    result: list[Part | _Group] = []
    index = 0
    while index < len(items):
        item = items[index]
        choices = _one_of_count(item)
        run = items[index:index + choices]
        if choices >= 2 and len(run) == choices and all(not isinstance(o, Part) and o[2] == item[2] for o in run):
            none: list[list] = [[]] if item[2].endswith(ONE_OF_NONE) else []
            result.append((ONE_OF_GROUP, [other[1] for other in run] + none))
            index += choices
            continue
        result.append(item if isinstance(item, Part) else item[:2])
        index += 1
    return result


def _one_of_count(item: Part | tuple) -> int:
    """N when the item is an optional run opened by `one of N` (or `one of N or none`), else 0."""
    if isinstance(item, Part) or item[0] != "opt_begin":
        return 0
    marker = _ONE_OF_MARKER.fullmatch(item[2])
    return int(marker[1]) if marker else 0


def _is_hole(item: Part | _Group) -> bool:
    """Whether the item is a placeholder, or a run holding one."""
    if isinstance(item, Part):
        return item.kind not in MARKERS and item.kind != "lit"
    kind, children = item
    if kind == ONE_OF_GROUP:
        return any(_is_hole(child) for choice in children for child in choice)
    return any(_is_hole(child) for child in children)


def _may_be_absent(item: Part | _Group) -> bool:
    """Whether the regex may match the item with no text: an optional or repeated run, a choice of which one may
    be, or blank literal text."""
    if isinstance(item, Part):
        return not item.text.strip()
    kind, children = item
    return kind != ONE_OF_GROUP or any(all(_may_be_absent(child) for child in choice) for choice in children)


def _variants(items: list[Part | _Group]) -> list[tuple[Part | _Group, ...]]:
    """The sequences the items spell with each run that holds a placeholder or a choice present or not, and each
    choice of several made.

    A choice is made here, not left to the regex as an alternation: between two placeholders a stretch is
    matched once, at its first occurrence, and an alternation there would commit to its first choice that
    fits. Past MAX_VARIANTS, a run with a placeholder reads as one; one without stays in its stretch.
    """
    results: list[tuple[Part | _Group, ...]] = [()]
    for item in items:
        if isinstance(item, Part) or not (_is_hole(item) or _holds_choice(item)):
            results = [r + (item,) for r in results]
            continue
        kind, children = item
        if kind == ONE_OF_GROUP:
            options = [variant for choice in children for variant in _variants(choice)]
        else:
            inner = _variants(children)
            if kind == "rep_begin":  # one round, then anything: further rounds are text a placeholder takes
                inner = [v + (_HOLE,) for v in inner]
            options = [(), *inner]
        if len(results) * len(options) > MAX_VARIANTS:
            options = [(_HOLE,)] if _is_hole(item) else [(item,)]
        results = [r + o for r in results for o in options]
    return results


def _holds_choice(item: Part | _Group) -> bool:
    """Whether the item is a choice of several, or a run holding one."""
    if isinstance(item, Part):
        return False
    kind, children = item
    return kind == ONE_OF_GROUP or any(_holds_choice(child) for child in children)


def _linear(items: tuple[Part | _Group, ...], names: Iterator[str]) -> str:
    """One sequence as a regex: literal stretches between placeholders, each middle one atomic.

    A placeholder reads any text, but one that is a class's name (`{type(x).__name__}`,
    `{self.__class__.__name__}`) only a dotted name: `{self.__class__.__name__} has no attribute
    {name}` is no template of `'str' object has no attribute 'obj'`.
    """
    stretches: list[list[str]] = [[]]
    holes: list[str] = []  # the regex of the placeholders before each stretch after the first
    for item in items:
        if not _is_hole(item):
            stretches[-1].append(_stretch_regex(item))
        elif stretches[-1] or len(stretches) == 1:  # placeholders next to each other read as one
            stretches.append([])
            holes.append(_hole_regex(item))
        else:
            holes[-1] = _merged_hole_regex(holes[-1], _hole_regex(item))
    if len(stretches) == 1:
        return "".join(stretches[0])
    middle = []
    for hole, stretch in zip(holes, stretches[1:-1]):
        name = next(names)
        middle.append(f"(?=(?P<{name}>{hole}{''.join(stretch)}))(?P={name})")
    return "".join(stretches[0]) + "".join(middle) + holes[-1] + "".join(stretches[-1])


ANY_TEXT = ".*?"
CLASS_NAME_TEXT = r"[\w.<>']*?"  # quoted too: `%r` leaves no `!r` in the placeholder's text
# `{type(x).__name__!r}`: a name's repr, which opens with a quote. Its closing quote, or all of it, may be missing
# from a message cut short: `cut_fit` completes one with the placeholders after its end left empty.
QUOTED_CLASS_NAME_TEXT = r"(?:'[\w.<>]*?'?)??"
# A placeholder whose value is a class's name: `type(x).__name__`, `x.__class__.__name__`, `type(x).__qualname__`.
_CLASS_NAME = re.compile(r"(?:type\(.*\)|.*\.__class__)\.__(?:qual)?name__")
# `{type(x)}`: a class as str() writes it, `<class 'jax.Array'>` (an enum's `<enum 'AxisType'>`, a flag's `<flag
# 'F'>`), or any beginning of that (a message cut short).
CLASS_TEXT = r"(?:<(?:[a-z]+(?: (?:'[^'\n]*'?>?)?)?)?)??"
_CLASS = re.compile(r"(?:type\((?:[^()]|\([^()]*\))*\)|[\w.]+\.__class__)(?:!r|!s)?")


def _merged_hole_regex(first: str, second: str) -> str:
    """What two placeholders next to each other read as one: class names run together (`'A''B'`) read as a name
    with quotes in it, anything else as any text."""
    names = (CLASS_NAME_TEXT, QUOTED_CLASS_NAME_TEXT)
    return CLASS_NAME_TEXT if first in names and second in names else ANY_TEXT


def _hole_regex(item: Part | _Group) -> str:
    """What a placeholder reads: a class as str() writes it (`<class 'jax.Array'>`, `<enum 'AxisType'>`); a dotted
    name for a class's name, in quotes when converted by `!r`; else any text.

    Python words `unhashable type: 'JaxprTracer'` itself; `Tracer.__hash__`'s `unhashable type: {type(self)}` (up to
    jax 0.4.35) does not.

    jax 0.4.24's `Config.__getattr__` worded `'{type(self).__name__!r} object has no attribute {name!r}`, whose
    messages begin with two quotes (`''Config' object ...`): Python's own `'ArrayImpl' object has no attribute
    'x'` is none of them.
    """
    if not (isinstance(item, Part) and item.kind == "expr"):
        return ANY_TEXT
    if _CLASS.fullmatch(item.text):
        return CLASS_TEXT
    expression = item.text.removesuffix("!r")
    if _CLASS_NAME.fullmatch(expression) is None:
        return ANY_TEXT
    return QUOTED_CLASS_NAME_TEXT if expression != item.text else CLASS_NAME_TEXT


def _stretch_regex(item: Part | _Group) -> str:
    """Literal text, or a run of it that is optional or repeated (lazy: the shortest match comes first)."""
    if isinstance(item, Part):
        return _literal_regex(item.text)
    kind, children = item
    if kind == ONE_OF_GROUP:  # past MAX_VARIANTS only (`_variants`)
        return "(?:" + "|".join("".join(_stretch_regex(child) for child in choice) for choice in children) + ")"
    return "(?:" + "".join(_stretch_regex(child) for child in children) + (")??" if kind == "opt_begin" else ")*?")


def _literal_regex(text: str) -> str:
    words = text.split()
    if not words:
        return r"\s*"
    lead = r"\s*" if text[:1].isspace() else ""
    trail = r"\s*" if text[-1:].isspace() else ""
    return lead + r"\s+".join(re.escape(w) for w in words) + trail


class Wording:
    """The messages that one snapshot's exception classes (`__init__`) and module functions build, by dotted path,
    and the class each function's message is raised as, where it makes exceptions (a factory, or makers')."""

    def __init__(self, templates: Mapping[str, Template] | None = None, makes: Mapping[str, str] | None = None
                 ) -> None:
        self.templates = dict(templates or {})
        self.makes = dict(makes or {})
        by_name: dict[str, list[str]] = {}
        for path in self.templates:
            by_name.setdefault(path.rpartition(".")[2], []).append(path)
        self._unique = {name: paths[0] for name, paths in by_name.items() if len(paths) == 1}

    @classmethod
    def of_sites(cls, sites: Iterable[tuple[str, str, Template]]) -> Wording:
        """From wording sites as (dotted path, raised expression, template), in source order: a function's
        `exc_expr` names the class it makes, or the function itself when its words are returned as a string."""
        templates: dict[str, Template] = {}
        makes: dict[str, str] = {}
        for path, made, template in sites:
            templates[path] = template
            if made != path.rpartition(".")[2]:
                makes[path] = made
        return cls(templates, makes)

    def splices(self, template: Template, exc_class: str | None) -> tuple[Template, str | None, list[str | None]]:
        """What `as_raised` puts into a raise's template: its class's words when the raise spells none, or, of a
        class that wraps the message passed in (`wraps`), the raise's words wrapped (the template then, and the
        class's path, else None); then, for each part of that template, the function whose words replace the
        part, an opaque call of it (else None). A class that only appends lines around a raise of no words (`{msg}`)
        adds nothing: the message would then be any text."""
        by_class = self._path(exc_class)
        words = self.words_of(by_class) if by_class is not None else None
        if words is not None and wraps(words) and (template.has_words or without_appended(words).has_words):
            template = wrapped_in(words, template)
        elif words is not None and not wraps(words) and not template.has_words:
            template = words
        else:
            by_class = None
        return template, by_class, [self._called(p.text) if p.kind == "opaque" else None for p in template.parts]

    def words_of(self, path: str) -> Template:
        """The words the class or function at `path` puts into a raise. A function making exceptions of a class that
        wraps the message passed in (`core.escaped_tracer_error` makes `UnexpectedTracerError(msg)`) has its words
        wrapped so."""
        words = self.templates[path]
        made = self._path(self.makes.get(path))
        around = self.templates.get(made) if made is not None else None
        return wrapped_in(around, words) if around is not None and wraps(around) and words.has_words else words

    def words_from(self, template: Template, exc_class: str | None) -> tuple[str, ...]:
        """The classes and functions, by dotted path, whose words `as_raised` puts into a raise's template."""
        _template, by_class, calls = self.splices(template, exc_class)
        return tuple(dict.fromkeys(path for path in (by_class, *calls) if path is not None))

    def class_raised(self, exc_class: str | None, exc_expr: str, template: Template) -> str | None:
        """The exception class a raise raises, where a function of the snapshot makes it: `raise
        core.escaped_tracer_error(t)` raises what that factory makes, and `e, *_ = prefix_errors(...);
        raise e(...)` (a name raised, its template that call alone) what the makers `prefix_errors` returns
        make."""
        if exc_class is not None:
            return self.makes.get(self._path(exc_class) or "")
        if exc_expr.isidentifier() and len(template.parts) == 1 and template.parts[0].kind == "opaque":
            return self.makes.get(self._called(template.parts[0].text) or "")
        return None

    def _path(self, path: str | None) -> str | None:
        """The class or function at `path`; by its name alone when no other of the snapshot has it, since JAX
        raises classes by a path that re-exports them (`jax.errors.TracerIntegerConversionError` is
        `jax._src.errors`'s)."""
        if not path:
            return None
        if path in self.templates:
            return path
        return self._unique.get(path.rpartition(".")[2])

    def _called(self, expression: str) -> str | None:
        """The function `helper(...)` or `module.helper(...)` calls, when one function of the snapshot has that name."""
        called = _CALL.match(expression)
        return self._unique.get(called.group(1).rpartition(".")[2]) if called else None


_CALL = re.compile(r"([A-Za-z_][\w.]*)\(")


def as_raised(template: Template, exc_class: str | None, wording: Wording) -> Template:
    """The message a raise shows, with what other modules word put in.

    `raise TracerBoolConversionError(arg)` passes a tracer, not a message: the class's `__init__`
    builds the words; `raise core.escaped_tracer_error(t)` raises what a factory of another module
    builds. A helper of another module called in the message (`stages._mismatch_error(...)`) is
    spliced in as it words its message (its parameters' names kept).
    """
    template, _by_class, calls = wording.splices(template, exc_class)
    if all(path is None for path in calls):
        return template
    parts: list[Part] = []
    for part, path in zip(template.parts, calls):
        merge_into(parts, wording.words_of(path).parts if path is not None else (part,))
    return Template(tuple(parts), template.forms)
