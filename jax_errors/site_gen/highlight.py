"""A small, fast Python highlighter for source excerpts: escaped HTML, one string per line.

Pygments takes ~5 ms per excerpt, half a minute for the catalogue; one regex pass is far quicker.
Excerpts are cut out of files, so a pass must survive unbalanced brackets and strings.
"""

from __future__ import annotations

import builtins
import keyword
import re

from markupsafe import Markup

_KEYWORDS = frozenset(keyword.kwlist) | (frozenset(keyword.softkwlist) - {"_"})
_CONSTANTS = frozenset({"True", "False", "None", "Ellipsis", "NotImplemented"})
_BUILTINS = frozenset(name for name in dir(builtins) if not name.startswith("_")) - _CONSTANTS - _KEYWORDS


_CLASS_OF = {**dict.fromkeys(_BUILTINS, "nb"), **dict.fromkeys(_KEYWORDS, "k"), **dict.fromkeys(_CONSTANTS, "kc")}
_DEFINERS = frozenset({"def", "class"})

# The source is escaped (&, <, >) before this runs; none of its tokens holds those characters,
# and quotes need no escaping outside attributes.
_TOKEN = re.compile(r"""
    (?P<c>\#[^\n]*)
  | (?P<s>(?<![\w])[rRbBuUfFtT]{0,2}
        (?:'''(?:[^\\]|\\.)*?(?:'''|\Z) | \"\"\"(?:[^\\]|\\.)*?(?:\"\"\"|\Z)
          | '(?:[^'\\\n]|\\.)*'? | "(?:[^"\\\n]|\\.)*"?))
  | (?P<m>\b(?:0[xXoObB][0-9a-fA-F_]+|\d[\d_]*(?:\.\d*)?(?:[eE][+-]?\d+)?j?)\b)
  | (?P<name>[A-Za-z_]\w*)
""", re.VERBOSE | re.DOTALL)


def _span(css: str, text: str) -> str:
    # A span never crosses a line, so that every line stands on its own.
    return f'<span class="{css}">' + text.replace("\n", f'</span>\n<span class="{css}">') + "</span>"


def highlight_lines(source: str) -> list[Markup]:
    """The source as escaped HTML lines with `<span class=...>` around tokens (none crosses a line)."""
    previous = ""

    def token(match: re.Match[str]) -> str:
        nonlocal previous
        text, kind = match.group(), match.lastgroup
        if kind != "name":
            return _span(kind, text)  # type: ignore[arg-type]
        css = "nf" if previous in _DEFINERS else _CLASS_OF.get(text)
        if css is None and text.endswith(("Error", "Exception")):
            css = "nb"
        previous = text
        return f'<span class="{css}">{text}</span>' if css else text

    escaped = source.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return [Markup(line) for line in _TOKEN.sub(token, escaped).split("\n")]


def code_block(source: str, *, start: int = 1, marked: tuple[int, int] | None = None) -> Markup:
    """A `<pre>` of numbered lines; lines within `marked` (first, last) get the `hl` class."""
    first, last = marked or (0, -1)
    rows = []
    for number, line in enumerate(highlight_lines(source), start):
        if first <= number <= last:
            anchor = ' id="raise"' if number == first else ""
            rows.append(f'<span class="line hl"{anchor}><span class="ln">{number}</span>{line}</span>')
        else:
            rows.append(f'<span class="line"><span class="ln">{number}</span>{line}</span>')
    return Markup('<pre class="code"><code>' + "\n".join(rows) + "</code></pre>")
