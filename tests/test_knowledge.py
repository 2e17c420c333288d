"""Curated knowledge files parse, name real errors, and their examples reproduce those errors."""

import re
from pathlib import Path

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from jax_errors.db.engine import copy_database
from jax_errors.db.models import Occurrence
from jax_errors.reproduce.case_runner import run_cases
from jax_errors.reproduce.cases import load_cases
from jax_errors.site_gen.knowledge import KnowledgeError, check_knowledge, load_knowledge, parse_knowledge

ROOT = Path(__file__).parent.parent


def test_a_file_without_front_matter_is_refused(tmp_path):
    path = tmp_path / "x.md"
    path.write_text("no front matter\n")
    with pytest.raises(KnowledgeError, match="does not start with a --- front matter block"):
        parse_knowledge(path)


def test_check_flags_unknown_ids_and_cases_that_do_not_reproduce(tmp_path):
    (tmp_path / "a.md").write_text("---\nerror_id: aaaa\ntitle: A\ncase: one\n---\nMeaning.\n")
    (tmp_path / "b.md").write_text("---\nerror_id: bbbb\ntitle: B\ncase: two\n---\nMeaning.\n")
    entries = load_knowledge(tmp_path)
    problems = check_knowledge(entries, known_ids={"aaaa"}, case_names={"one", "two"},
                               reproduced={"one": ("reproduced", "aaaa"), "two": ("no-error", None)})
    assert [p.problem for p in problems] == ["error id bbbb is not in the catalogue", "case two is no-error"]


def test_a_file_keeps_the_ids_its_error_had_at_older_releases(tmp_path):
    (tmp_path / "new.md").write_text("---\nerror_id: cccc\nformer_ids: [aaaa]\ntitle: C\ncase: one\n---\nMeaning.\n")
    entries = load_knowledge(tmp_path)
    assert entries["aaaa"] is entries["cccc"] and entries["cccc"].error_ids == ("cccc", "aaaa")
    # A catalogue of the older release only, whose case run is attributed to the former id: all is well.
    assert check_knowledge(entries, known_ids={"aaaa"}, case_names={"one"},
                           reproduced={"one": ("reproduced", "aaaa")}) == []
    problems = check_knowledge(entries, known_ids={"bbbb"}, case_names={"one"}, reproduced={"one": ("reproduced", "bbbb")})
    assert [p.problem for p in problems] == ["error id cccc is not in the catalogue", "case one raises bbbb, not cccc"]
    (tmp_path / "old.md").write_text("---\nerror_id: aaaa\ntitle: A\n---\nMeaning.\n")
    with pytest.raises(KnowledgeError, match="error id aaaa is also in"):
        load_knowledge(tmp_path)


@pytest.mark.slow  # reproduces every case the knowledge files name (258)
def test_curated_knowledge_matches_the_catalogue_and_reproduces(installed_db_path, tmp_path):

    from jax_errors.db.engine import open_database

    db = tmp_path / "knowledge.db"
    copy_database(installed_db_path, db)
    engine = open_database(db)
    entries = load_knowledge(ROOT / "knowledge")
    cases = load_cases(ROOT / "cases")
    linked = [c for c in cases if c.name in {e.case for e in entries.values()}]
    report = run_cases(engine, linked, jobs=2, timeout=120)
    with Session(engine) as session:
        known = set(session.scalars(select(Occurrence.error_id).where(Occurrence.error_id.is_not(None))))
    reproduced = {r.case_name: (r.status, r.error_id) for r in report.results}
    problems = check_knowledge(entries, known_ids=known, case_names={c.name for c in cases}, reproduced=reproduced)
    assert [str(p) for p in problems] == []


@pytest.mark.parametrize(("text", "problem"), [
    ("---\nerror_id: a\ntitle: A\nsolutions: just one text\n---\n", "'solutions' must be a list of texts"),
    ("---\nerror_id: a\ntitle: A\ncase: [one, two]\n---\n", "'case' must be the name of one case"),
    ("---\nerror_id: a\ntitle: A\nsituations:\n  - {nested: map}\n---\n", "'situations' must be a list of texts"),
    ("---\nerror_id: a\ntitle: A\nx: &a [1, 2]\ny: [*a, *a]\n---\n", "aliases are not allowed"),
])
def test_wrongly_typed_or_aliased_front_matter_is_one_clear_error(tmp_path, text, problem):
    path = tmp_path / "a.md"
    path.write_text(text)
    with pytest.raises(KnowledgeError, match=re.escape(problem)) as info:
        parse_knowledge(path)
    assert "\n" not in str(info.value)


def test_a_knowledge_file_that_is_not_utf8_is_one_clear_error(tmp_path):
    path = tmp_path / "a.md"
    path.write_bytes(b"---\nerror_id: a\ntitle: caf\xe9\n---\n")
    with pytest.raises(KnowledgeError, match="is not UTF-8"):
        parse_knowledge(path)


def test_every_jax_name_the_advice_mentions_exists_in_the_installed_jax():
    """`jax.…`, `lax.…` and `jnp.…` names in knowledge files and cases (prose and code) resolve on the installed jax.

    Advice naming a removed API (`lax.pvary`, gone in 0.10) would send a user to an AttributeError.
    """
    import importlib
    import re
    import warnings

    name = re.compile(r"(?<![\w.])(jax|lax|jnp)((?:\.[A-Za-z_]\w*)+)")
    roots = {"jax": "jax", "lax": "jax.lax", "jnp": "jax.numpy"}

    def resolves(root: str, rest: str) -> bool:
        module = roots[root]
        found = importlib.import_module(module)
        for part in rest.strip(".").split("."):
            module += "." + part
            if hasattr(found, part):
                found = getattr(found, part)
                continue
            try:
                found = importlib.import_module(module)  # a submodule not imported by its package
            except ImportError:
                return False
        return True

    repo = Path(__file__).parent.parent
    files = sorted([*(repo / "knowledge").glob("*.md"), *(repo / "cases").glob("*.py")])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # a deprecated name still resolves
        seen = {(m.group(0), f.name) for f in files for m in name.finditer(f.read_text(encoding="utf-8"))}
        missing = sorted((mention, file) for mention, file in seen
                         if not resolves(*name.fullmatch(mention).groups()))
    assert len(seen) > 300 and missing == []
