"""Passages of JAX's own documentation, as a crawl reads them: the pages under `docs/` and the error classes' docstrings.

A passage is one paragraph, code block or cell output, under the heading of its section, with the
docs.jax.dev address of that section. The site later picks those that speak of an error
(`site_gen.doc_mentions`). Pages come from a git snapshot's `docs/` folder (a wheel or an sdist
ships none); the docstrings of `jax/_src/errors.py` are what docs.jax.dev's errors page shows, and
every snapshot has them.
"""

from __future__ import annotations

import ast
import hashlib
import inspect
import json
import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from jax_errors.crawler.sources import SourceFile
from jax_errors.exceptions import SourceError
from jax_errors.template import shortened

DOCS_DIR = "docs"
DOCS_URL = "https://docs.jax.dev/en/latest/"
ERRORS_MODULE = "jax/_src/errors.py"
ERRORS_PAGE = DOCS_URL + "errors.html"
PAGE_SUFFIXES = (".md", ".rst", ".ipynb")
MAX_PASSAGE = 2000  # characters kept of one passage: a long code block or output is cut

PassageKind = Literal["prose", "code", "output", "docstring"]


@dataclass(frozen=True)
class DocPassage:
    """One paragraph of JAX's docs, where it stands and where docs.jax.dev shows it."""

    path: str  # in the repository: `docs/faq.rst`, or `jax/_src/errors.py` for a docstring
    line: int  # where it starts in that file (of a notebook: the cell's number)
    heading: str  # its section's title as plain text; a docstring's is its class name
    url: str
    kind: PassageKind
    text: str
    position: int = 0  # its place among its file's passages

    @property
    def digest(self) -> str:
        """What identifies the passage across snapshots: its words and section, not where the file has it.

        An edit above a passage moves it, and a snapshot holding it links to the stored one anew.
        """
        key = "\0".join((self.path, self.heading, self.url, self.kind, self.text))
        return hashlib.sha1(key.encode("utf-8")).hexdigest()


def read_passages(docs: Iterable[SourceFile], package: Iterable[SourceFile]) -> list[DocPassage]:
    """The passages of the pages in `docs` and of the error classes' docstrings in `package`.

    A notebook paired with a Markdown twin (jupytext) is read from the notebook, which keeps the
    outputs, errors included. A page that does not parse is left out.
    """
    pages = {f.path: f for f in docs if f.path.endswith(PAGE_SUFFIXES) and not f.link}
    notebooks = {path.removesuffix(".ipynb") for path in pages if path.endswith(".ipynb")}
    passages: list[DocPassage] = []
    titles: dict[str, str] = {}
    for path in sorted(pages):
        try:
            text = pages[path].read().decode("utf-8")
            titles.update(label_titles(text))
            if path.endswith(".md") and path.removesuffix(".md") in notebooks:
                continue
            passages.extend(_numbered(_page_passages(path, text)))
        except (SourceError, UnicodeDecodeError, ValueError, KeyError, TypeError, AttributeError):
            continue
    for source in package:
        if source.path == ERRORS_MODULE:
            passages.extend(_numbered(docstring_passages(source.path, source.read())))
    return [replace(p, text=titled_references(p.text, titles)) for p in passages] if titles else passages


_LABEL = re.compile(r"^(?:\(([\w.-]+)\)=|\.\. _([\w.-]+):)\s*$")  # MyST `(label)=`, rST `.. _label:`
_BARE_REFERENCE = re.compile(r":ref:`([\w.-]+)`")


def label_titles(text: str) -> dict[str, str]:
    """The sections a page labels, by label: a label line, then the title that follows it."""
    titles = {}
    lines = text.splitlines()
    for number, line in enumerate(lines):
        found = _LABEL.match(line.strip())
        if not found:
            continue
        following = next((ln for ln in lines[number + 1:number + 4] if ln.strip()), "")
        heading = _MD_HEADING.match(following)
        title = heading.group(2) if heading else following.strip()
        if title and not _LABEL.match(title) and not title.startswith(".."):
            titles[found.group(1) or found.group(2)] = plain_heading(title)
    return titles


def titled_references(text: str, titles: dict[str, str]) -> str:
    """`:ref:`label`` written with the title Sphinx shows for it (`:ref:`Title <label>``), where known."""
    return _BARE_REFERENCE.sub(lambda m: f":ref:`{titles[m.group(1)]} <{m.group(1)}>`" if m.group(1) in titles
                               else m.group(0), text)


def _numbered(passages: Iterable[DocPassage]) -> list[DocPassage]:
    return [replace(passage, position=number) for number, passage in enumerate(passages)]


def _page_passages(path: str, text: str) -> list[DocPassage]:
    if path.endswith(".ipynb"):
        return list(notebook_passages(path, json.loads(text)))
    blocks = rst_blocks(text) if path.endswith(".rst") else markdown_blocks(text)
    return [_passage(path, line, heading, anchor, kind, body) for line, heading, anchor, kind, body in blocks
            if body.strip()]


def _passage(path: str, line: int, heading: str, anchor: str, kind: PassageKind, body: str) -> DocPassage:
    return DocPassage(path, line, heading, page_url(path, anchor), kind, _cut(body))


def page_url(path: str, anchor: str = "") -> str:
    page = path.removeprefix(DOCS_DIR + "/").rsplit(".", 1)[0] + ".html"
    return DOCS_URL + page + (f"#{anchor}" if anchor else "")


# Sections -----------------------------------------------------------------------------------

_ROLE = re.compile(r"\{[\w:-]+\}`([^`]*)`")  # MyST `{func}`jax.jit`` and the like
_RST_ROLE = re.compile(r":[\w:-]+:`([^`<]*?)(?:\s*<[^`]*>)?`")  # rST :func:`jax.jit`, :ref:`text <label>`
_SHORT_NAME = re.compile(r"~(?:[\w]+\.)+(\w+)")  # `~jax.Array` reads `Array`
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_EMPHASIS = re.compile(r"(?<!\w)\*{1,2}(\S[^*\n]*?)\*{1,2}(?!\w)")


def plain_heading(title: str) -> str:
    """Text as a reader sees it rendered: roles, links, emphasis and inline-code marks taken away."""
    title = _LINK.sub(r"\1", _RST_ROLE.sub(r"\1", _ROLE.sub(r"\1", title)))
    title = _EMPHASIS.sub(r"\1", _SHORT_NAME.sub(r"\1", title))
    return " ".join(title.replace("``", "").replace("`", "").split())


def section_anchor(title: str) -> str:
    """The id Sphinx (docutils' `make_id`) gives a section with this title, the first on its page to have it."""
    ascii_text = unicodedata.normalize("NFKD", plain_heading(title)).encode("ascii", "ignore").decode("ascii")
    slug = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower())
    return re.sub(r"^[-0-9]+|-+$", "", slug)


class Sections:
    """The section a page's reading is in: its heading and anchor, as titles come.

    The first title is the page's own: its section is the page, with no anchor. A title a page
    already used gets an id from docutils' running counter (`id3`), which only a full parse knows:
    its passages link to the page.
    """

    def __init__(self) -> None:
        self.heading = ""
        self.anchor = ""
        self.titled = False
        self._used: set[str] = set()

    def enter(self, title: str) -> None:
        self.heading = plain_heading(title)
        anchor = section_anchor(title) if self.titled else ""
        self.anchor = "" if anchor in self._used else anchor
        self._used.add(anchor)
        self.titled = True


Block = tuple[int, str, str, PassageKind, str]  # line, heading, anchor, kind, text

_MD_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_FENCE = re.compile(r"^\s*(`{3,}|~{3,}|:{3,})\s*(\S*)")
_CODE_INFO = re.compile(r"^(?:\{code[\w-]*\}|[\w+-]*)$")  # a code cell or block, or a language: not a directive
_MARKUP_LINE = re.compile(r"^(?:\+\+\+.*|<!--.*-->|\([\w.-]+\)=|:[\w-]+:.*)$")  # cell breaks, comments, labels, options


def markdown_blocks(text: str, sections: Sections | None = None, *, first_line: int = 1) -> list[Block]:
    """The paragraphs and fenced code blocks of a (MyST) Markdown page, each under its section's heading.

    The text inside a directive's fence (a note, a tip) is read as paragraphs. `sections` carries
    the section from one notebook cell to the next.
    """
    sections = sections or Sections()
    lines = text.splitlines()
    start = _front_matter_end(lines)
    blocks: list[Block] = []
    paragraph: list[str] = []
    paragraph_line = 0
    code_fence: str | None = None
    code: list[str] = []
    code_line = 0
    directives: list[str] = []  # the fences of the directives open around this line

    def add(line: int, kind: PassageKind, body: str) -> None:
        blocks.append((line, sections.heading, sections.anchor, kind, body))

    def flush() -> None:
        nonlocal paragraph
        if paragraph:
            add(paragraph_line, "prose", "\n".join(paragraph))
            paragraph = []

    for number, raw in enumerate(lines[start:], start=start + first_line):
        stripped = raw.strip()
        if code_fence is not None:
            if stripped.startswith(code_fence) and not stripped.strip(code_fence[0]):
                add(code_line, "code", _without_options(code))
                code_fence, code = None, []
            else:
                code.append(raw)
            continue
        opened = _FENCE.match(raw)
        if opened:
            flush()
            fence, info = opened.groups()
            if directives and fence == directives[-1] and not info:
                directives.pop()
            elif _CODE_INFO.match(info) and fence[0] != ":":
                code_fence, code, code_line = fence, [], number + 1
            else:
                directives.append(fence)
            continue
        found = _MD_HEADING.match(raw)
        if found:
            flush()
            sections.enter(found.group(2))
            continue
        if not stripped or _MARKUP_LINE.match(stripped):
            flush()
            continue
        if not paragraph:
            paragraph_line = number
        paragraph.append(stripped)
    flush()
    if code_fence is not None and code:
        add(code_line, "code", _without_options(code))
    return blocks


def _without_options(code: list[str]) -> str:
    """A fenced block's code, without the directive's options (`:tags: [raises-exception]`) heading it."""
    start = 0
    while start < len(code) and re.match(r"^\s*:[\w-]+:", code[start]):
        start += 1
    return "\n".join(code[start:])


def _front_matter_end(lines: Sequence[str]) -> int:
    if lines and lines[0].strip() == "---":
        for number, line in enumerate(lines[1:], start=1):
            if line.strip() == "---":
                return number + 1
    return 0


_UNDERLINE = re.compile(r"^([=\-~^\"'*+#`:.])\1{2,}\s*$")
_DIRECTIVE = re.compile(r"^\.\.\s+([\w:-]+)::")
# What an indented block under a directive is: code, text read as paragraphs, or neither (a list of
# API names, a table of contents, an image): left out.
_CODE_DIRECTIVES = frozenset({"code-block", "code", "sourcecode", "testcode", "testoutput", "doctest", "ipython",
                              "jupyter-execute"})
_PROSE_DIRECTIVES = frozenset({"note", "warning", "tip", "important", "caution", "attention", "danger", "error",
                               "hint", "admonition", "seealso", "versionadded", "versionchanged", "deprecated"})


def rst_blocks(text: str) -> list[Block]:
    """The paragraphs and literal blocks of a reStructuredText page, each under its section's heading.

    A title is a line underlined (and maybe overlined) by one repeated punctuation mark. An indented
    block is code after a paragraph ending in `::` or under a code directive, paragraphs under an
    admonition (a note, a warning) or in a list, and is left out under other directives
    (autosummary, toctree) and comments.
    """
    lines = text.splitlines()
    sections = Sections()
    blocks: list[Block] = []
    current: list[str] = []
    current_line = 0
    current_kind: PassageKind = "prose"
    indented_kind: PassageKind | None = "prose"  # what the next indented block is; None: left out

    def flush() -> None:
        nonlocal current
        if current:
            body = inspect.cleandoc("\n".join(current)) if current_kind == "code" else "\n".join(current)
            blocks.append((current_line, sections.heading, sections.anchor, current_kind, body))
            current = []

    index = 0
    while index < len(lines):
        raw = lines[index]
        following = lines[index + 1] if index + 1 < len(lines) else ""
        stripped = raw.strip()
        indented = raw.startswith((" ", "\t"))
        if (stripped and not indented and _UNDERLINE.match(following)
                and len(following.strip()) >= len(stripped) and not _UNDERLINE.match(raw)):
            flush()
            sections.enter(stripped)
            indented_kind = "prose"
            index += 2
            continue
        index += 1
        if _UNDERLINE.match(raw):  # an overline, or a transition
            flush()
        elif not stripped:
            if current_kind == "prose":
                flush()
            elif current:
                current.append("")
        elif raw.startswith(".."):
            flush()
            directive = _DIRECTIVE.match(raw)
            name = directive.group(1) if directive else None
            indented_kind = ("code" if name in _CODE_DIRECTIVES else "prose" if name in _PROSE_DIRECTIVES else None)
        elif indented and (current_kind == "code" or not current):
            if indented_kind is None or re.match(r"^\s*:[\w-]+:", raw):  # left out, or a directive's option
                continue
            if not current:
                current_kind, current_line = indented_kind, index
            current.append(raw if current_kind == "code" else stripped)
        else:
            if current and current_kind == "code":
                flush()
            if not current:
                current_kind, current_line = "prose", index
                if not indented:
                    indented_kind = "prose"
            current.append(stripped)
            if stripped.endswith("::"):
                indented_kind = "code"
    flush()
    return blocks


def notebook_passages(path: str, notebook: dict) -> Iterator[DocPassage]:
    """A Jupyter notebook's Markdown cells as paragraphs, its code cells and their outputs (errors too)."""
    sections = Sections()
    for number, cell in enumerate(notebook.get("cells", []), start=1):
        source = _joined(cell.get("source", ""))
        if cell.get("cell_type") == "markdown":
            for _, heading, anchor, kind, body in markdown_blocks(source, sections, first_line=number):
                if body.strip():
                    yield _passage(path, number, heading, anchor, kind, body)
        elif cell.get("cell_type") == "code":
            if source.strip():
                yield _passage(path, number, sections.heading, sections.anchor, "code", source)
            for output in cell.get("outputs", []):
                text = _output_text(output)
                if text.strip():
                    yield _passage(path, number, sections.heading, sections.anchor, "output", text)


def _output_text(output: dict) -> str:
    if output.get("output_type") == "error":
        return f"{output.get('ename', '')}: {output.get('evalue', '')}"
    if output.get("output_type") == "stream":
        return _joined(output.get("text", ""))
    return _joined(output.get("data", {}).get("text/plain", ""))


def _joined(value: str | list[str]) -> str:
    return value if isinstance(value, str) else "".join(value)


# Docstrings ---------------------------------------------------------------------------------

def docstring_passages(path: str, source: bytes) -> list[DocPassage]:
    """Each exception class's docstring in `jax/_src/errors.py`: docs.jax.dev's errors page, by class.

    The first paragraphs are kept, up to the first example.
    """
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return []
    passages = []
    for node in tree.body:
        docstring = ast.get_docstring(node) if isinstance(node, ast.ClassDef) else None
        if not docstring or node.name.startswith("_"):
            continue
        paragraphs = []
        for paragraph in docstring.split("\n\n"):
            if paragraph.lstrip().startswith((">>>", "Example", "For example")) or paragraph.startswith(" "):
                break
            words = " ".join(paragraph.split())
            if words.endswith("::"):  # it leads into an example: keep what comes before its last sentence
                words = words[:-2].rpartition(". ")[0] + "." if ". " in words else ""
                if words:
                    paragraphs.append(words)
                break
            paragraphs.append(words)
        if paragraphs:
            passages.append(DocPassage(path, node.lineno, node.name, f"{ERRORS_PAGE}#jax.errors.{node.name}",
                                       "docstring", _cut("\n\n".join(paragraphs))))
    return passages


def _cut(text: str) -> str:
    return shortened(text.strip("\n"), MAX_PASSAGE)


_ERROR_WORDS = re.compile(r"[A-Z]\w*(?:Error|Exception)\b|\b[Ee]rrors?\b|\braise[sd]?\b")


def speaks_of_errors(passage: DocPassage) -> bool:
    """Whether a passage may explain an error: a docstring or output, or words of errors and raising.

    Only these are stored; the site picks among them those that name a card's message or class.
    """
    return passage.kind in ("docstring", "output") or _ERROR_WORDS.search(passage.text) is not None


def _page_files(docs: Iterable[SourceFile]) -> list[SourceFile]:
    """The files of `docs` that are pages (links to one included)."""
    return [f for f in docs if f.path.endswith(PAGE_SUFFIXES)]


def docs_digest(docs: Iterable[SourceFile], package: Iterable[SourceFile]) -> str:
    """What `error_passages` reads and counts, by path and blob: two snapshots alike here have the same passages."""
    read = sorted((f.path, f.blob_sha) for f in _page_files(docs))
    read += [(f.path, f.blob_sha) for f in package if f.path == ERRORS_MODULE]
    return hashlib.sha1("".join(f"{path}\0{sha}\n" for path, sha in read).encode("utf-8")).hexdigest()


def error_passages(docs: Sequence[SourceFile], package: Iterable[SourceFile]) -> tuple[int, list[DocPassage]]:
    """How many pages `docs` holds, and the passages of them and of the docstrings that speak of errors."""
    pages = len(_page_files(docs))
    return pages, [p for p in read_passages(docs, package) if speaks_of_errors(p)]
