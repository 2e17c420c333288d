"""What the crawled releases say of a module or a name that a message says is missing.

`module 'jax' has no attribute 'tree_multimap'`, `No module named 'jax.experimental.maps'` and `cannot
import name 'PRNGKeyArray' from 'jax.random'` are worded by the interpreter, or by a module's `__getattr__`
as the interpreter words them: no card tells what happened. The releases do: the name was there up
to some release, or came in a later one (`db.name_history`). Lookup says so in a line of its own,
besides any card the message fits.

The history is the plain JSON that `db.name_history.NameHistory.as_json` writes, which the search page
reads too (static/lookup.js): {"releases": [label, ...], "modules": {module: span}, "names": {module.name:
span}, "module_names": {module: [name, ...]}}, each span [first, last, warned, warning]
(`db.name_history.Span`); a name of `module_names` has its module's span.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

# The messages that say a module, or a name of one, is missing: each names the module, and the name if it is one.
# The interpreter's words, and `deprecations.py`'s, for a module that lacks a name: `module 'jax' has no attribute
# 'tree_map'` (a first line; Python 3.12 may go on `. Did you mean: 'tree'?`).
NO_ATTRIBUTE = re.compile(r"module '(?P<module>[\w.]+)' has no attribute '(?P<name>\w+)'")
NO_MODULE = re.compile(r"No module named '(?P<module>[\w.]+)'")
CANNOT_IMPORT = re.compile(r"cannot import name '(?P<name>\w+)' from '(?P<module>[\w.]+)'")
MISSING = (NO_ATTRIBUTE, NO_MODULE, CANNOT_IMPORT)


def missing(line: str) -> str | None:
    """The dotted name a message's first line says is missing (`jax.tree_multimap`), if it says one is."""
    for pattern in MISSING:
        if said := pattern.match(line):
            groups = said.groupdict()
            return f"{groups['module']}.{groups['name']}" if groups.get("name") else groups["module"]
    return None


def name_said(history: Mapping[str, Any] | None, line: str) -> str | None:
    """What the crawled releases say of the module or name `line` (a message's first line) says is missing: when it
    came, when it went, and what its module warned while it kept it. None when the message names none, or the
    releases tell nothing of it (it was in all of them that had its module, or its module's names are not all known).
    """
    dotted = missing(line)
    if not history or dotted is None:
        return None
    releases, modules = history["releases"], history["modules"]
    if NO_MODULE.match(line) is not None:  # a module missing is told as one
        return _told(dotted, "a module", modules[dotted], releases) if dotted in modules else None
    module, _, name = dotted.rpartition(".")
    if dotted in history["names"]:
        return _told(dotted, f"a name of {module}", history["names"][dotted], releases)
    if name in history["module_names"].get(module, ()):  # it came and went with its module
        return _told(dotted, f"a name of {module}", modules[module], releases)
    return None


def _told(dotted: str, what: str, span: list[Any], releases: list[str]) -> str:
    """One sentence of a span (`db.name_history.Span`, as JSON); `first in` and `last in`, since it may have been
    missing from some releases between."""
    first, last, warned, warning = span
    if first is not None and last is not None:
        was = f"only in {releases[first]}" if first == last else \
            f"first in {releases[first]} and last in {releases[last]}"
        said = (f"{dotted} was {what}, {was}: releases from {releases[last + 1]} on lack it, and so do those before "
                f"{releases[first]}.")
    elif last is not None:
        said = f"{dotted} was {what}, last in {releases[last]}: releases from {releases[last + 1]} on lack it."
    elif first is not None:
        said = f"{dotted} is {what}, first in {releases[first]}: releases before it lack it."
    else:
        said = f"{dotted} is {what}."
    if warned is not None:
        said += f" Reading it warned, first in {releases[warned]}" + (f": \u201c{warning}\u201d" if warning else ".")
    return said
