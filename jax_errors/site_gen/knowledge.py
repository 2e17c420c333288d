"""Curated knowledge: one Markdown file per error, front matter keyed by the error id.

    ---
    error_id: 252d5ba9437acc7a
    title: all_gather_reduced needs a varying input
    case: all_gather_reduced_not_varying     # the harness case whose trigger/fixed are the before/after
    solutions:
      - Apply `lax.pvary(x, 'i')` before `all_gather_reduced`.
    situations:
      - Migrating psum/pmap code to named-axis SPMD style and forgetting the `pvary` annotation.
    ---
    What the error means, in Markdown.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from jax_errors.exceptions import KnowledgeError

DEFAULT_KNOWLEDGE_DIR = Path("knowledge")
_FENCE = "---"




@dataclass(frozen=True)
class Knowledge:
    """What a person wrote about one error."""

    error_id: str
    title: str
    meaning: str  # Markdown
    solutions: tuple[str, ...]
    situations: tuple[str, ...]
    case: str | None
    path: Path
    # The ids this error had at older releases (reworded, or its raise moved to a renamed function):
    # their cards show this text too, and the file stays valid on a catalogue of those releases.
    former_ids: tuple[str, ...] = ()

    @property
    def error_ids(self) -> tuple[str, ...]:
        return (self.error_id, *self.former_ids)


def parse_knowledge(path: Path) -> Knowledge:
    """Read one knowledge file.

    Raises:
        KnowledgeError: not UTF-8, no front matter, bad YAML (aliases included), a missing
            `error_id`/`title`, or a field of the wrong type.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise KnowledgeError(path, f"is not UTF-8 (byte {error.start})") from error
    if not text.startswith(_FENCE + "\n"):
        raise KnowledgeError(path, "does not start with a --- front matter block")
    head, sep, body = text[len(_FENCE) + 1:].partition("\n" + _FENCE + "\n")
    if not sep:
        raise KnowledgeError(path, "front matter is not closed by ---")
    try:
        meta = _without_aliases(head) or {}
    except yaml.YAMLError as error:
        raise KnowledgeError(path, f"bad YAML: {str(error).splitlines()[0]}") from error
    if not isinstance(meta, dict):
        raise KnowledgeError(path, "front matter is not a mapping")
    for key in ("error_id", "title"):
        if not isinstance(meta.get(key), str) or not meta[key].strip():
            raise KnowledgeError(path, f"front matter needs a string {key!r}")
    case = meta.get("case")
    if case is not None and not (isinstance(case, str) and case.strip()):
        raise KnowledgeError(path, "'case' must be the name of one case")
    return Knowledge(
        error_id=meta["error_id"].strip(),
        title=meta["title"].strip(),
        meaning=body.strip(),
        solutions=_strings(path, meta, "solutions"),
        situations=_strings(path, meta, "situations"),
        case=case,
        path=path,
        former_ids=tuple(i.strip() for i in _strings(path, meta, "former_ids")),
    )


def _strings(path: Path, meta: dict, key: str) -> tuple[str, ...]:
    """A list of texts (YAML scalars), or none; a lone string would render one bullet per character."""
    value = meta.get(key)
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, (str, int, float)) for v in value):
        raise KnowledgeError(path, f"{key!r} must be a list of texts")
    return tuple(str(v) for v in value)


# libyaml's loader where PyYAML has it: ten times as fast as the Python one over the knowledge folder.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _without_aliases(text: str) -> Any:
    """YAML without anchors and aliases: a few bytes of nested aliases expand to gigabytes."""
    for event in yaml.parse(text, Loader=_LOADER):
        if isinstance(event, yaml.AliasEvent):
            raise yaml.composer.ComposerError(None, None, "aliases are not allowed", event.start_mark)
    return yaml.load(text, Loader=_LOADER)


def load_knowledge(folder: Path = DEFAULT_KNOWLEDGE_DIR) -> dict[str, Knowledge]:
    """Every knowledge file of a folder, by each error id it is about, former ids included (a missing folder has none)."""
    entries: dict[str, Knowledge] = {}
    for path in sorted(Path(folder).glob("*.md")):
        entry = parse_knowledge(path)
        for error_id in entry.error_ids:
            if error_id in entries:
                raise KnowledgeError(path, f"error id {error_id} is also in {entries[error_id].path}")
            entries[error_id] = entry
    return entries


@dataclass(frozen=True)
class KnowledgeProblem:
    path: Path
    problem: str

    def __str__(self) -> str:
        return f"{self.path}: {self.problem}"


def check_knowledge(
    entries: Mapping[str, Knowledge], *, known_ids: Collection[str], case_names: Collection[str],
    reproduced: Mapping[str, tuple[str, str | None]] | None = None,
) -> list[KnowledgeProblem]:
    """What is wrong with curated files: unknown ids, missing cases, examples that do not reproduce.

    Parameters:
        known_ids: error ids of the catalogue.
        case_names: names of the harness cases.
        reproduced: case name -> (status, attributed error id) of its latest run; None skips
            the check that each file's case reproduces its error.
    """
    problems = []
    for entry in sorted(set(entries.values()), key=lambda e: e.path):
        if not any(error_id in known_ids for error_id in entry.error_ids):
            problems.append(KnowledgeProblem(entry.path, f"error id {entry.error_id} is not in the catalogue"))
        if entry.case is None:
            continue
        if entry.case not in case_names:
            problems.append(KnowledgeProblem(entry.path, f"case {entry.case!r} does not exist"))
            continue
        if reproduced is None:
            continue
        status, error_id = reproduced.get(entry.case, ("not run", None))
        if status != "reproduced":
            problems.append(KnowledgeProblem(entry.path, f"case {entry.case} is {status}"))
        elif error_id not in entry.error_ids:
            problems.append(KnowledgeProblem(entry.path, f"case {entry.case} raises {error_id}, not {entry.error_id}"))
    return problems
