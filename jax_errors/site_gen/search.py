"""The offline search index: Pagefind (its binary ships in `pagefind[bin]`), run over what it indexes of the site.

A card page is mostly what Pagefind is told to ignore (the source, the history), so it is given,
for each page, a small page holding only the part it indexes (`searchable_document`). It reads
those three times as fast as the whole pages, and makes the same index byte for byte.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from functools import cache
from pathlib import Path

from jax_errors.exceptions import SearchIndexError
from jax_errors.reproduce.sandbox import die_with_parent
from jax_errors.site_gen.pagefind_bundle import (
    UNREADABLE,
    fragment_files,
    indexed_pages,
    keep_only_fragments,
    lengthened_names,
    prune,
    referenced_files,
)

BUNDLE_DIR = "pagefind"


def pagefind_executable() -> Path:
    try:
        import pagefind_bin
    except ImportError as error:
        raise SearchIndexError("pagefind is not installed: pip install 'pagefind[bin]'") from error
    try:
        return pagefind_bin.get_executable()
    except FileNotFoundError as error:
        raise SearchIndexError(f"the pagefind binary is missing: {error}") from error


class IndexRun:
    """Pagefind indexing the pages in `sources` into `bundle`, in a process of its own.

    An earlier index in `bundle` is indexed over, keeping its page fragments: Pagefind writes only
    the fragments of pages whose text is new (`changed` of them), and what the new index no longer
    refers to is then removed (`wait`).

    Pagefind names a file by 7 hex digits of its content's hash and does not write a file whose
    name exists, so a new fragment whose name a kept one has would never be written. That shows as
    fewer fragments written than pages changed, or (when the kept one's page is indexed too, and
    Pagefind lengthens one of the two names) as a longer name; the index is then made again from
    nothing.

    Raises:
        SearchIndexError: pagefind is not installed.
    """

    def __init__(self, sources: Path, bundle: Path, *, changed: int) -> None:
        self.sources, self.bundle, self.changed = sources, bundle, changed
        keep_only_fragments(bundle)
        self.kept = fragment_files(bundle)
        self.process = self._start()

    def _start(self) -> subprocess.Popen:
        command = [str(pagefind_executable()), "--site", str(self.sources), "--output-path", str(self.bundle),
                   "--quiet"]
        # Killed with the build: an orphan would go on writing a bundle the next build removes.
        return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                preexec_fn=die_with_parent)

    def wait(self) -> int:
        """How many pages the index holds, once Pagefind is done.

        Raises:
            SearchIndexError: pagefind failed, or wrote an index that does not read back.
        """
        self._finished()
        try:
            live = referenced_files(self.bundle)
            written = fragment_files(self.bundle) - self.kept
            if self.kept and (len(written) < self.changed or lengthened_names(live)):
                shutil.rmtree(self.bundle)  # a fragment may have kept an old file's content: index anew
                self.kept, self.process = set(), self._start()
                self._finished()
                live = referenced_files(self.bundle)
            prune(self.bundle, live)
            return indexed_pages(self.bundle)
        except UNREADABLE as error:
            raise SearchIndexError(f"pagefind wrote an index that does not read back: {error}") from error

    def _finished(self) -> None:
        output, errors = self.process.communicate()
        if self.process.returncode != 0:
            reason = (errors or output).strip().splitlines()
            raise SearchIndexError(
                f"pagefind failed ({self.process.returncode}): {reason[-1] if reason else 'no output'}")

    def stop(self) -> None:
        """End Pagefind, for a build that stops before its index is needed."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.communicate()


# What Pagefind indexes of a page ------------------------------------------------------------

_LANGUAGE = re.compile(r"<html\b[^>]*\blang=\"([^\"]*)\"", re.IGNORECASE)
_BODY = re.compile(r"<([a-zA-Z][\w-]*)\b[^>]*\bdata-pagefind-body\b[^>]*>")
_IGNORED = re.compile(r"<([a-zA-Z][\w-]*)\b[^>]*\bdata-pagefind-ignore\b[^>]*>")


def searchable_document(html: str) -> str | None:
    """A page holding only what Pagefind indexes of `html`, in the same language; None for a page it leaves out.

    Pagefind indexes the document as it would the page: same text, title and anchors.
    """
    part = searchable_part(html)
    if part is None or part is html:  # no body, or one that does not close: Pagefind reads the page itself
        return part
    language = _LANGUAGE.search(html[:1000])
    lang = f' lang="{language.group(1)}"' if language else ""
    return f'<!DOCTYPE html>\n<html{lang}><head><meta charset="utf-8"></head><body>{part}</body></html>\n'


def searchable_part(html: str) -> str | None:
    """What Pagefind indexes of a page: its `data-pagefind-body` element without the
    `data-pagefind-ignore` elements inside, runs of whitespace as one space (as Pagefind reads them).
    None for a page without a body, which Pagefind leaves out.

    Markup is kept, so the part changes whenever the indexed text can; of a page whose elements do
    not close as expected, the whole page. Equal parts for the same pages mean Pagefind writes the
    same index.
    """
    body = _BODY.search(html) if "data-pagefind-body" in html else None  # the test spares scanning index pages
    if body is None:
        return None
    end = _element_end(html, body.group(1), body.end())
    if end is None:
        return html
    kept, position = [], body.start()
    for ignored in _IGNORED.finditer(html, body.end(), end):
        if ignored.start() < position:  # inside an element already left out
            continue
        kept.append(html[position:ignored.start()])
        position = _element_end(html, ignored.group(1), ignored.end())
        if position is None:
            return html
    kept.append(html[position:end])
    return " ".join("".join(kept).split())


_WEIGHT = re.compile(r'\s+data-pagefind-weight="[^"]*"')


def fragment_changes(old: Path, document: str) -> bool:
    """Whether Pagefind writes a new fragment for a page whose indexed document was `old` (a file) and is now
    `document`: its text changed, not only the weights of its words, which rank it but are not in a fragment."""
    try:
        before = old.read_text(encoding="utf-8")
    except OSError:
        return True
    return _WEIGHT.sub("", before) != _WEIGHT.sub("", document)


@cache
def _same_name_tags(name: str) -> re.Pattern[str]:
    return re.compile(rf"<(/?){re.escape(name)}(?=[\s/>])[^>]*?(/?)>", re.IGNORECASE)


def _element_end(html: str, name: str, position: int) -> int | None:
    """Where the element named `name`, whose start tag ends at `position`, ends; None if it never closes."""
    depth = 1
    for tag in _same_name_tags(name).finditer(html, position):
        closing, self_closing = tag.groups()
        depth += -1 if closing else 0 if self_closing else 1
        if depth == 0:
            return tag.end()
    return None
