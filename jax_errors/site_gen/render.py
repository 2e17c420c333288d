"""The site's one Jinja Environment, its named filters, and page rendering."""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
from datetime import datetime
from functools import cache
from typing import Any

import jinja2
from jinja2 import Environment, FileSystemBytecodeCache, PackageLoader, StrictUndefined
from jinja2.bccache import Bucket
from markdown_it import MarkdownIt
from markupsafe import Markup, escape

from jax_errors.cache import cache_folder
from jax_errors.site_gen.catalogue import Card
from jax_errors.site_gen.highlight import code_block
from jax_errors.site_gen.links import (
    GITHUB_REPO,
    card_json_path,
    card_path,
    commit_url,
    diff_path,
    errors_page_url,
    github_url,
    issue_search_url,
    relative_root,
)
from jax_errors.snapshots import is_commit, short_commit
from jax_errors.template import APPENDED, MARKERS

SITE_NAME = "jax-errors"
# Raw HTML in curated Markdown is shown as text: knowledge files are data, not markup.
_MARKDOWN = MarkdownIt("commonmark", {"html": False})


def markdown(text: str | None) -> Markup:
    return Markup(_MARKDOWN.render(text or ""))


def markdown_inline(text: str | None) -> Markup:
    return Markup(_MARKDOWN.renderInline(text or ""))


_OPTIONS = {"autoescape": True, "trim_blocks": True, "lstrip_blocks": True, "keep_trailing_newline": True}
_GROUPS = {
    "opt_begin": '<span class="opt" title="added only on some paths">',
    "rep_begin": '<span class="opt rep" title="added any number of times, by a loop">',
}
# The lines a wrapping class adds (`template.wrapped_in`): every message has them, so not bracketed as optional.
_APPENDED = '<span class="appended" title="added to every message by its class">'


def message(parts: list[list[str]]) -> Markup:
    """A message template: literal text as is, placeholders as `{expression}` in their own spans,
    and the parts only some runs add (between `opt_begin` and `opt_end`, or repeated by a loop
    between `rep_begin` and `rep_end`) in an `opt` span."""
    out, depth = [], 0
    for kind, text in parts:
        if kind == "lit":
            out.append(str(escape(text)))
        elif kind in _GROUPS:
            depth += 1
            out.append(_APPENDED if (kind, text) == ("opt_begin", APPENDED) else _GROUPS[kind])
        elif kind in MARKERS:
            if depth:
                depth -= 1
                out.append("</span>")
        else:
            css = "ph" if kind == "expr" else "ph opaque"
            hint = "an interpolated value" if kind == "expr" else "text the crawler could not rebuild"
            out.append(f'<span class="{css}" title="{hint}">{{{escape(text)}}}</span>')
    out.extend("</span>" * depth)
    return Markup("".join(out))


_WRAP_AFTER = re.compile(r"(?<=[^\W_])_|[./]")  # an underscore inside a name (not a leading one), a dot, a slash


def ident(name: str) -> Markup:
    """A dotted or snake_case name (or a path) that may wrap only after its dots, underscores and slashes,
    never inside a word."""
    return Markup(_WRAP_AFTER.sub(r"\g<0><wbr>", str(escape(name))))


def excerpt(card: Card) -> Markup:
    site = card.site
    return code_block(site.excerpt, start=site.excerpt_start, marked=(site.lineno, site.end_lineno))


def python(source: str | None) -> Markup:
    return code_block(source or "")


def day(value: datetime | None) -> str:
    return value.strftime("%Y-%m-%d") if value else ""


def plural(count: int, word: str, many: str | None = None) -> str:
    return f"{count:,} {word if count == 1 else (many or word + 's')}"


def merged_sources(sources: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A heading's source badges, one per kind in the order first given, its notes joined."""
    notes: dict[str, list[str]] = {}
    for kind, note in sources:
        notes.setdefault(kind, []).append(note)
    return [(kind, "; ".join(dict.fromkeys(kind_notes))) for kind, kind_notes in notes.items()]


@cache
def environment() -> Environment:
    """The Environment every page is rendered with: autoescaped, strict about undefined names."""
    env = Environment(loader=PackageLoader("jax_errors.site_gen", "templates"), undefined=StrictUndefined,
                      bytecode_cache=_compiled_templates(), **_OPTIONS)
    env.filters.update(
        markdown=markdown, markdown_inline=markdown_inline, message=message, excerpt=excerpt,
        python=python, day=day, short=short_commit, plural=plural, ident=ident, merged_sources=merged_sources,
    )
    env.tests["commit"] = is_commit
    env.globals.update(
        site_name=SITE_NAME, repo_url=GITHUB_REPO, card_path=card_path, card_json_path=card_json_path,
        diff_path=lambda diff: diff_path(diff.old.label, diff.new.label), github_url=github_url,
        errors_page_url=errors_page_url, issue_search_url=issue_search_url, commit_url=commit_url,
    )
    return env


class _KeptTemplates(FileSystemBytecodeCache):
    """Jinja's own cache of compiled templates, where a file that will not read or write is compiled again."""

    def load_bytecode(self, bucket: Bucket) -> None:
        try:
            super().load_bytecode(bucket)
        except (OSError, EOFError, ValueError, TypeError):  # cut short or unreadable: compiled as without a cache
            bucket.reset()

    def dump_bytecode(self, bucket: Bucket) -> None:
        with contextlib.suppress(OSError):  # a full disk, say: the page still renders
            super().dump_bytecode(bucket)


def _compiled_templates() -> FileSystemBytecodeCache | None:
    """Where the templates are kept compiled between runs: compiling them is a tenth of a small build.

    Jinja keys each by its source; the folder's name covers what else shapes the compiled code.
    """
    shaping = hashlib.sha256(f"{jinja2.__version__} {sorted(_OPTIONS.items())}".encode()).hexdigest()[:16]
    folder = cache_folder("templates") / shaping
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None  # compiled in memory only, as without a cache
    return _KeptTemplates(str(folder)) if os.access(folder, os.W_OK) else None


def render_page(template: str, page: str, **context: Any) -> str:
    """Render `template` as the site-relative file `page`: links inside are relative to it."""
    return environment().get_template(template).render(page=page, root=relative_root(page), **context)
