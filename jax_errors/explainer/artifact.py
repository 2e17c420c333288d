"""The explain index a site build writes (`api/explain.json`), and reading it back without a database.

It holds lookup's entries as `Entry.row` gives them (what `LookupIndex` is made from), the ids seen
raising, the base URL the site was built for (`jax-errors build --base-url`), and for each card with
more to say than its message, what the site shows: its title, curated title, meaning, solutions and
example fix. Written with sorted keys and no path of the build machine, like every JSON file of the
site, and checked against `site_gen/schema/explain.schema.json`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jax_errors.exceptions import IndexFileError
from jax_errors.lookup.index import Entry, LookupIndex
from jax_errors.template import Template

EXPLAIN_PATH = "api/explain.json"
EXPLAIN_SCHEMA = "explain.schema.json"
# Bump when what the file holds changes shape or meaning (5: heads, not first lines; 6: each entry's `said`; 7: the cut
# keys of templates a message cut short may begin; 8: a removed card's lineage end, `ends_as`; 9: the attribute of a
# name a module removed, `attribute`; 10: the card of each such name, in the prepared index; 11: the words raises add
# to a caught exception's message, `wrappers`, in it too; 12: what the releases say of modules and names, `names`, in
# it too); a reader refuses others.
FORMAT = 12


@dataclass(frozen=True)
class Artifact:
    """An explain index as read: the lookup index, and what cards show beyond their message, by id."""

    index: LookupIndex
    cards: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    base_url: str | None = None
    newest: str | None = None  # the label of the newest snapshot of the catalogue


def entry_record(entry: Entry) -> dict[str, Any]:
    """One lookup entry as JSON: `entry_from_record` makes it again."""
    return {
        "id": entry.error_id, "class": entry.exc_class, "parts": entry.template.to_json(),
        "forms": sorted(entry.template.forms), "path": entry.path, "line": entry.lineno,
        "snapshot": entry.snapshot, "examples": list(entry.examples), "live_id": entry.live_id, "until": entry.until,
        "ends_as": entry.ends_as, "wording_of": entry.wording_of,
        "said": None if entry.said is None else list(entry.said), "attribute": entry.attribute,
    }


def entry_from_record(record: Mapping[str, Any]) -> Entry:
    parts = Template.from_json(record["parts"]).parts
    return Entry.from_row((record["id"], record["class"], parts, frozenset(record["forms"]), record["path"],
                           record["line"], record["snapshot"], tuple(record["examples"]), record["live_id"],
                           record["until"], record["ends_as"], record["wording_of"],
                           None if record["said"] is None else tuple(record["said"]), record["attribute"]))


def read_artifact(path: Path) -> Artifact:
    """The explain index in the file `path`.

    Raises:
        IndexFileError: the file cannot be read, is not JSON, or is not an explain index of FORMAT.
    """
    try:
        data = json.loads(Path(path).read_bytes())
    except (OSError, ValueError) as error:
        raise IndexFileError(str(path), str(error)) from error
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        found = data.get("format") if isinstance(data, dict) else type(data).__name__
        raise IndexFileError(str(path), f"not an explain index of format {FORMAT} (found {found!r})")
    try:
        records = data["entries"]
        index = LookupIndex.from_prepared(records, entry_from_record, [r["id"] for r in records],
                                          frozenset(data["raised"]), data["index"])
        return Artifact(index, data["cards"], data["base_url"], data["newest"])
    except (KeyError, TypeError, ValueError) as error:
        raise IndexFileError(str(path), f"malformed: {error!r}") from error
