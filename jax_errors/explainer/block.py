"""The short block shown under a JAX traceback: the card's title, score, first solution and link.

Plain text under a terminal's traceback; in a notebook, a small HTML block with the example fix
collapsed (`<details>`), the plain text its fallback. Curated Markdown is shown as written in plain
text and rendered without raw HTML in the block (knowledge files are data, not markup).
"""

from __future__ import annotations

import html

from jax_errors.explainer.cards import Explanation

NO_SOLUTION = "No solution written for this card yet; the card has its message and source."
_BOX = ("border-left: 3px solid #d9822b; background: rgba(217, 130, 43, 0.08); padding: 0.4em 0.8em; "
        "margin: 0.4em 0; font-family: var(--jp-ui-font-family, sans-serif); font-size: 0.95em; line-height: 1.4;")
_CODE = ("background: rgba(0, 0, 0, 0.05); padding: 0.5em; margin: 0.3em 0 0; overflow-x: auto; "
         "font-family: var(--jp-code-font-family, monospace); font-size: 0.9em;")


def text_block(found: Explanation) -> str:
    """The block as plain text: three lines."""
    solution = " ".join(found.solution.split()) if found.solution else NO_SOLUTION
    return "\n".join([
        f"jax-errors: {found.title}  [card {found.error_id}, score {found.score:.2f}, {found.confidence}]",
        f"  Try: {solution}",
        f"  See: {found.url}  (or: jax-errors explain {found.error_id})",
    ])


def html_block(found: Explanation) -> str:
    """The block as HTML for a notebook, every text escaped; the example fix is collapsed."""
    solution = _inline_markdown(found.solution) if found.solution else html.escape(NO_SOLUTION)
    parts = [
        f'<div class="jax-errors-explain" data-error-id="{found.error_id}" style="{_BOX}">',
        f'<div><strong>jax-errors</strong>: <a href="{html.escape(found.url)}" target="_blank" rel="noopener">'
        f"{html.escape(found.title)}</a> "
        f'<span style="opacity: 0.7">card {found.error_id}, score {found.score:.2f}, {found.confidence}</span></div>',
        f"<div>Try: {solution}</div>",
    ]
    if found.fix:
        case = html.escape(found.card.fix.case)
        parts.append(f'<details><summary>Example fix (case <code>{case}</code>)</summary>'
                     f'<pre style="{_CODE}">{html.escape(found.fix)}</pre></details>')
    parts.append("</div>")
    return "\n".join(parts)


def mime_bundle(found: Explanation) -> dict[str, str]:
    """What IPython's `display` shows: the HTML where a notebook renders it, the plain text elsewhere."""
    return {"text/plain": text_block(found), "text/html": html_block(found)}


def releases_text(said: str) -> str:
    """What the releases say of a missing module or name (`hook.releases_for_traceback`), as a line of plain text."""
    return f"jax-errors: {said}"


def releases_bundle(said: str) -> dict[str, str]:
    """The same for IPython's `display`: a small HTML block, the plain line its fallback."""
    return {"text/plain": releases_text(said),
            "text/html": f'<div class="jax-errors-releases" style="{_BOX}"><strong>jax-errors</strong>: '
                         f"{html.escape(said)}</div>"}


def _inline_markdown(text: str) -> str:
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": False}).renderInline(text)
