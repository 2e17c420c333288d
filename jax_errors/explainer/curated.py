"""One card's curated text from `knowledge/` and `cases/`, parsing only the files about it.

A database holds no curated text; the site joins it with the knowledge files and cases at build
time. Explaining one error with a database needs one card's: its knowledge file (named by the
error's id, or naming it among its `former_ids`) and the case that file names, else a case whose
`ERROR_ID` or `FORMER_ERROR_IDS` is the error's. The folders are read as text once, and only the
files holding the id are parsed: a card costs well under a millisecond, where parsing every file
takes ~0.2 s. What the site adds from the database (a predecessor's text through the error's
lineage, a case that reproduced the error without naming it) is left out here: build a site for it.
"""

from __future__ import annotations

from functools import cached_property
from pathlib import Path

from jax_errors.explainer.cards import Fix
from jax_errors.reproduce.cases import Case, load_case
from jax_errors.site_gen.knowledge import Knowledge, parse_knowledge


class CuratedFolders:
    """The knowledge files and cases of two folders (missing ones hold none), read when a card first needs them."""

    def __init__(self, knowledge_dir: Path, cases_dir: Path) -> None:
        self.knowledge_dir = Path(knowledge_dir)
        self.cases_dir = Path(cases_dir)

    @cached_property
    def _knowledge_texts(self) -> dict[Path, str]:
        return _texts(self.knowledge_dir, "*.md")

    @cached_property
    def _case_texts(self) -> dict[Path, str]:
        return _texts(self.cases_dir, "[!_]*.py")

    def knowledge_about(self, error_id: str) -> Knowledge | None:
        """The knowledge file about `error_id` (by its name or its `former_ids`), None without one.

        Raises:
            KnowledgeError: the file is malformed.
        """
        named = self.knowledge_dir / f"{error_id}.md"
        paths = [named] if named in self._knowledge_texts else _holding(self._knowledge_texts, error_id)
        return next((entry for entry in map(parse_knowledge, paths) if error_id in entry.error_ids), None)

    def case_about(self, error_id: str, name: str | None = None) -> Case | None:
        """The case called `name` (a knowledge file's `case`), else one whose expected ids hold `error_id`.

        Raises:
            CaseError: the case file is malformed.
        """
        named = self.cases_dir / f"{name}.py" if name else None
        if named in self._case_texts:
            return load_case(named)
        return next((case for case in map(load_case, _holding(self._case_texts, error_id))
                     if error_id in case.error_ids), None)


def fix_of(case: Case | None) -> Fix | None:
    return Fix.of_case(case) if case else None


def _texts(folder: Path, pattern: str) -> dict[Path, str]:
    texts = {}
    for path in sorted(folder.glob(pattern)):
        try:
            texts[path] = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
    return texts


def _holding(texts: dict[Path, str], text: str) -> list[Path]:
    return [path for path, body in texts.items() if text in body]
