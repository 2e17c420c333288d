"""A message template: the literal text and placeholders of an exception's message, as every stage sees it.

The crawler rebuilds templates from JAX's source (`crawler.template_builder`); the database stores
them as JSON parts; reproduction and lookup match messages against them; the site shows them.
Literal text is kept verbatim; interpolated values keep their expression text
(`{x_aval.str_short(True)}`); pieces whose text cannot be known statically are opaque.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

PartKind = Literal["lit", "expr", "opaque", "opt_begin", "opt_end"]
# opt_begin/opt_end bracket parts that only some runs add (`msg += ...` inside an `if`); they have no text.
MARKERS = frozenset({"opt_begin", "opt_end"})
TITLE_LENGTH = 120


@dataclass(frozen=True)
class Part:
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
    def title(self) -> str:
        """The literal text, placeholders as `…`, whitespace folded, cut at TITLE_LENGTH; empty if no words."""
        text = " ".join(self._joined("…").split())
        if not text.strip("… "):
            return ""
        return text if len(text) <= TITLE_LENGTH else text[:TITLE_LENGTH - 1].rstrip() + "…"

    def _joined(self, placeholder: str) -> str:
        """Literal text as is, each placeholder written as `placeholder.format(expression)`."""
        return "".join(
            p.text if p.kind == "lit" else "" if p.kind in MARKERS else placeholder.format(p.text)
            for p in self.parts
        )

    @property
    def complete(self) -> bool:
        """True when every piece of the message is known: literal text or an interpolated value."""
        return any(p.kind == "lit" and p.text.strip() for p in self.parts) and all(
            p.kind != "opaque" for p in self.parts
        )

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


def literal(text: str) -> Template:
    return Template((Part("lit", text),) if text else ())


def optional(template: Template) -> Template:
    """The same parts, marked as present in only some messages."""
    if not template.parts:
        return template
    return Template((Part("opt_begin", ""), *template.parts, Part("opt_end", "")), template.forms)


def _merge(parts: tuple[Part, ...]) -> tuple[Part, ...]:
    """Join neighbouring literal parts so equal templates have equal parts."""
    merged: list[Part] = []
    for part in parts:
        if part.kind == "lit" and not part.text:
            continue
        if merged and part.kind == "lit" and merged[-1].kind == "lit":
            merged[-1] = Part("lit", merged[-1].text + part.text)
        else:
            merged.append(part)
    return tuple(merged)


def template_regex(template: Template) -> re.Pattern[str]:
    """A regex that matches any message the template can produce, whitespace-insensitively."""
    pieces: list[str] = []
    for part in template.parts:
        if part.kind == "opt_begin":
            pieces.append("(?:")
        elif part.kind == "opt_end":
            pieces.append(")?")
        elif part.kind == "lit":
            words = part.text.split()
            lead = r"\s*" if part.text[:1].isspace() else ""
            trail = r"\s*" if part.text[-1:].isspace() else ""
            pieces.append(lead + r"\s+".join(re.escape(w) for w in words) + trail if words else r"\s*")
        else:
            pieces.append(r".*?")
    return re.compile(r"\s*" + "".join(pieces) + r"\s*", re.DOTALL)
