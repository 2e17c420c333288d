"""Lookup of real messages against the catalogue of the installed jax."""

import json

import pytest
from click.testing import CliRunner
from sqlalchemy.orm import Session

from jax_errors.cli import cli
from jax_errors.lookup import LookupIndex, parse_query

SEED_ID = "252d5ba9437acc7a"
TRACEBACK = '''Traceback (most recent call last):
  File "/home/me/train.py", line 12, in <module>
    y = f(x)
  File "/usr/lib/python3.12/site-packages/jax/_src/lax/parallel.py", line 2491, in _all_gather_reduced_effectful_abstract_eval
    raise ValueError('all_gather_reduced only accepts inputs that are'
ValueError: all_gather_reduced only accepts inputs that are varying. Got f32[1]
'''


@pytest.fixture(scope="module")
def index(crawled_db):
    with Session(crawled_db) as session:
        return LookupIndex.from_session(session)


def test_exact_message_matches_its_template(index):
    [best, *_] = index.lookup("all_gather_reduced only accepts inputs that are varying. Got f32[1]")
    assert (best.entry.error_id, best.how) == (SEED_ID, "template")
    assert best.score > 0.9


def test_traceback_gives_class_message_and_jax_frames():
    query = parse_query(TRACEBACK)
    assert query.exc_class == "ValueError"
    assert query.message == "all_gather_reduced only accepts inputs that are varying. Got f32[1]"
    assert query.jax_frames == (("jax/_src/lax/parallel.py", 2491),)


def test_reworded_message_falls_back_to_fuzzy(index):
    [best, *_] = index.lookup("all_gather_reduced only accepts varying inputs, got f32[3]")
    assert (best.entry.error_id, best.how) == (SEED_ID, "fuzzy")
    assert best.score < 0.9


def test_message_built_with_a_bound_format(index):
    [best, *_] = index.lookup("TypeError: Gradient only defined for scalar-output functions. Output had shape: (3,).")
    assert best.how == "template"
    assert best.entry.path == "jax/_src/api.py"


def test_cli_reads_a_traceback_on_stdin(installed_db_path):
    result = CliRunner().invoke(cli, ["lookup", "--json", "--db", str(installed_db_path)], input=TRACEBACK)
    assert result.exit_code == 0, result.output
    [best, *_] = json.loads(result.stdout)
    assert best["error_id"] == SEED_ID and best["line"] == 2491


def test_cli_without_message_or_stdin_is_a_usage_error(installed_db_path):
    result = CliRunner().invoke(cli, ["lookup", "--db", str(installed_db_path)], input="")
    assert result.exit_code == 2


def test_class_built_messages_find_the_raise(index):
    matches = index.lookup("ConcretizationTypeError: Abstract tracer value encountered where concrete value "
                           "is expected: traced array with shape float32[]\nThe problem arose with the `float` function.")
    assert matches and matches[0].how == "template"
    assert matches[0].entry.exc_class == "jax._src.errors.ConcretizationTypeError"


def test_accuracy_on_real_messages_from_jax_issues(crawled_db, index):
    """Top-1 accuracy over messages users pasted in JAX's issues (tests/data/issue_messages.json)."""
    from pathlib import Path

    from jax_errors.db.queries import find_snapshot, site_at
    from jax_errors.lookup import Query

    data = json.loads((Path(__file__).parent / "data" / "issue_messages.json").read_text())
    cases = [d for d in data if d["expected"]]
    assert len(data) == 50 and len(cases) >= 45
    hits = 0
    with Session(crawled_db) as session:
        snapshot = find_snapshot(session, "jax-v0.10.2")
        for case in cases:
            want = site_at(session, snapshot, case["expected"]["path"], case["expected"]["line"]).error_id
            matches = index.lookup(Query(case["message"], case["exception"].rpartition(".")[2]))
            hits += bool(matches) and matches[0].entry.error_id == want
    # Measured 22/46 without reproductions in the catalogue (25/46 with them); a drop is a regression.
    assert hits >= 22
