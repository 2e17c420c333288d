"""Every case's example runs exactly as its card shows it: the shown text, in a fresh process, on the installed jax."""

import pytest
from conftest import REPO_ROOT

from jax_errors.db.engine import copy_database, open_database
from jax_errors.reproduce.case_runner import run_cases
from jax_errors.reproduce.cases import load_cases

WRAPPER = '''"""{name}, as its card shows it."""

EXPECTED = {expected!r}
TAGS = {tags!r}
ERROR_ID = {error_id!r}
FORMER_ERROR_IDS = {former!r}
MESSAGE_CONTAINS = {contains!r}
SHOWN_BEFORE = {before!r}
SHOWN_AFTER = {after!r}


def trigger():
    exec(compile(SHOWN_BEFORE, "<shown before>", "exec"), {{"__name__": "__main__"}})


def fixed():
    exec(compile(SHOWN_AFTER, "<shown after>", "exec"), {{"__name__": "__main__"}})
'''


@pytest.mark.slow
def test_every_shown_example_runs_as_shown(installed_db_path, tmp_path):
    """The "before" raises the card's error at its raise site (as the harness attributes it); the "after" runs clean."""
    cases = load_cases(REPO_ROOT / "cases")
    folder = tmp_path / "shown"
    folder.mkdir()
    for case in cases:
        (folder / f"{case.name}.py").write_text(WRAPPER.format(
            name=case.name, expected=case.expected, tags=list(case.tags), error_id=case.error_id, former=list(case.former_error_ids),
            contains=case.message_contains, before=case.trigger_source, after=case.fixed_source))
    copy_database(installed_db_path, tmp_path / "catalogue.db")
    report = run_cases(open_database(tmp_path / "catalogue.db"), load_cases(folder), jobs=2, fresh=True)
    failing = sorted((row.case_name, row.status, row.detail, row.fixed_error) for row in report.results
                     if row.status != "reproduced" or not row.fixed_ok)
    assert len(report.results) == len(cases) == 258
    assert failing == []
