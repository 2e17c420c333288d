"""`jax-errors explain`: a whole card in the terminal, like `rustc --explain`.

The message, what it means, the solutions, the example fix highlighted (rich.syntax) and the
link. A card no one has curated says so and shows what the source gives: its title and message.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console, Group, RenderableType
from rich.markdown import Markdown
from rich.padding import Padding
from rich.rule import Rule
from rich.syntax import Syntax
from rich.text import Text

from jax_errors.explainer.cards import CardText, Explanation

UNCURATED = ("No one has written about this error yet: the title and message above come from JAX's source. "
             "Add knowledge/{}.md to explain it.")


def print_card(console: Console, found: Explanation, others: Sequence[Explanation] = ()) -> None:
    """Print the card of `found` in full, then one line for each other card that matched."""
    console.print(card_view(found))
    if others:
        console.print(Text("Other cards that match:", style="bold"))
        for other in others:
            console.print(Text.assemble(f"  {other.score:.2f} {other.confidence:<6} ", (other.error_id, "cyan"),
                                        f" {other.title}"))


def card_view(found: Explanation) -> RenderableType:
    card = found.card
    parts: list[RenderableType] = [Rule(f"{card.exc_class.rpartition('.')[2]} {card.error_id}", align="left")]
    parts.append(Text(card.name, style="bold"))
    if card.headline:
        parts.append(Text(card.title, style="dim"))
    if found.how != "id":
        parts.append(Text(_match_line(found), style="dim"))
    parts += _section("Message", Group(Text(card.message), Text(_where(card), style="dim")))
    parts += _section("What it means", Markdown(card.meaning) if card.meaning else
                      Text(UNCURATED.format(card.error_id), style="italic"))
    if card.solutions:
        parts += _section("Solutions", Markdown("\n".join(f"{i}. {s}" for i, s in enumerate(card.solutions, 1))))
    if card.fix:
        parts += _section(f"Example fix (case {card.fix.case})", Group(
            Text(card.fix.summary), Text("Before: raises", style="red"), _code(card.fix.before),
            Text("After: runs", style="green"), _code(card.fix.after)))
    parts += _section("Card", Text(found.url, style="underline"))
    return Group(*parts)


def _section(title: str, body: RenderableType) -> list[RenderableType]:
    return [Text(""), Text(title, style="bold underline"), Padding(body, (0, 0, 0, 2))]


def _code(source: str) -> Syntax:
    return Syntax(source, "python", theme="ansi_dark", background_color="default", word_wrap=True)


def _match_line(found: Explanation) -> str:
    line = f"matched by {found.how}, score {found.score:.2f} ({found.confidence} confidence)"
    if found.worded_until:
        line += f"; the message is worded as up to {found.worded_until}"
    return line


def _where(card: CardText) -> str:
    where = f"raised at {card.path}:{card.line} ({card.snapshot})"
    if card.removed_after:
        where += f"; no longer raised after {card.removed_after}"
    return where
