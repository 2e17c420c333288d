"""Triggers mined from JAX's tests: mining, static links, and real runs of synthetic JAX test files."""

import json
from dataclasses import asdict

import jax
import pytest
from click.testing import CliRunner
from sqlalchemy import select
from sqlalchemy.orm import Session

from jax_errors.cli import cli
from jax_errors.crawler.assert_links import classes_compatible, coverage
from jax_errors.crawler.assert_patterns import literal_runs
from jax_errors.crawler.asserts import extract_asserts
from jax_errors.crawler.installed import installed_snapshot
from jax_errors.crawler.mine_tests import folder_tests, git_tests, mine_tests
from jax_errors.crawler.repository import JaxRepository
from jax_errors.db.engine import copy_database, open_database
from jax_errors.db.models import ConfirmedTrigger, RaisesAssert, RaiseSite, StaticLink, TriggerRun
from jax_errors.db.queries import (
    find_snapshot,
    site_at,
    static_links_for_error,
    trigger_stats,
    triggers_for_error,
)
from jax_errors.exceptions import NotMinedError
from jax_errors.reproduce.confirm import confirm_triggers, select_tests
from jax_errors.site_gen import records
from jax_errors.site_gen.build import render_card
from jax_errors.site_gen.catalogue import load_catalogue
from jax_errors.template import Template

SYNTHETIC_TEST = '''\
import re

import pytest
from absl.testing import absltest
from jax._src import core

MSG = "must be positive"


class FooTest(absltest.TestCase):
  error = "from the class body"

  def testWithRaises(self):
    with self.assertRaises(ValueError):
      f(1)

  def testWithRegex(self):
    with self.assertRaisesRegex(TypeError, r"incompatible shapes for broadcasting: \\(3,\\)") as cm:
      g(2)
      h(3)

  def testLiteral(self):
    with self.assertRaisesWithLiteralMatch(ValueError, "exact (message)"):
      f()

  def testCallForms(self):
    self.assertRaises(IndexError, f, 1, key=2)
    self.assertRaisesRegex(core.ConcretizationTypeError, MSG, f, 3)

  def testEscapedAndVariable(self):
    msg = f"got {n} values"
    with self.assertRaisesRegex(ValueError, re.escape("shape (3,)")):
      f()
    with self.assertRaisesRegex((ValueError, TypeError), msg):
      f()
    with self.assertRaisesRegex(ValueError, self.error):
      f()

  def _helper(self):
    with self.assertRaisesRegex(ValueError, re.compile("in a helper", re.DOTALL)):
      f()

  def testUsesHelper(self):
    self._helper()


def test_pytest_style():
  with pytest.raises(KeyError, match="no such key"):
    f()
  pytest.raises(KeyError, f, 1)
'''


def mined_json(path: str = "tests/foo_test.py") -> list[dict]:
    found = []
    for mined in extract_asserts(SYNTHETIC_TEST, path):
        row = asdict(mined)
        row["pattern"] = mined.pattern.to_json() if mined.pattern is not None else None
        row["pattern_text"] = mined.pattern_text
        row["tests"] = [list(t) for t in mined.tests]
        row["exc_classes"] = list(mined.exc_classes)
        found.append(row)
    return found


def test_mining_matches_snapshot(snapshot):
    snapshot("triggers/asserts_sample.json", json.dumps(mined_json(), indent=2, sort_keys=True) + "\n")


def test_mining_covers_every_form():
    found = {(m.lineno, m.col): m for m in extract_asserts(SYNTHETIC_TEST, "tests/foo_test.py")}
    forms = sorted({(m.assert_kind, m.form) for m in found.values()})
    assert forms == [
        ("assertRaises", "call"), ("assertRaises", "with"), ("assertRaisesRegex", "call"),
        ("assertRaisesRegex", "with"), ("assertRaisesWithLiteralMatch", "with"),
        ("pytest.raises", "call"), ("pytest.raises", "with"),
    ]
    regex = found[(18, 9)]
    assert (regex.class_name, regex.method, regex.end_lineno) == ("FooTest", "testWithRegex", 20)
    assert regex.pattern_kind == "regex" and regex.pattern_text == r"incompatible shapes for broadcasting: \(3,\)"
    assert regex.statements == "g(2)\nh(3)"
    literal = found[(23, 9)]
    assert (literal.pattern_kind, literal.pattern_text, literal.exc_classes) == ("literal", "exact (message)", ("ValueError",))
    called = found[(28, 4)]
    assert called.form == "call" and called.statements == "f(3)" and called.pattern_text == "must be positive"
    assert called.exc_classes == ("jax._src.core.ConcretizationTypeError",)
    assert found[(27, 4)].statements == "f(1, key=2)" and found[(27, 4)].pattern is None
    assert found[(32, 9)].pattern_kind == "literal" and found[(32, 9)].pattern_text == "shape (3,)"
    variable = found[(34, 9)]
    assert variable.pattern_text == "got {n} values" and [p.kind for p in variable.pattern.parts] == ["lit", "expr", "lit"]
    assert variable.exc_classes == ("ValueError", "TypeError")
    assert found[(36, 9)].pattern_text == "from the class body"
    helper = found[(40, 9)]
    assert (helper.method, helper.pattern_text, helper.tests) == ("_helper", "in a helper", (("FooTest", "testUsesHelper"),))
    assert found[(48, 7)].pattern_text == "no such key" and found[(48, 7)].class_name is None
    assert found[(48, 7)].tests == ((None, "test_pytest_style"),)


def test_literal_runs_of_a_regex_and_a_literal():
    regex = Template.from_json([["lit", r"Incompatible shapes: \(3,\) and (\(4,\))+ x[ab]y dims? of "],
                                ["expr", "n"], ["lit", " axes"]])
    assert literal_runs(regex, "regex") == ["Incompatible shapes: (3,) and", "y dim", "axes"]
    literal = Template.from_json([["lit", "cannot reshape (3,) into "], ["expr", "s"]])
    assert literal_runs(literal, "literal") == ["cannot reshape (3,) into"]


def test_coverage_and_class_filter():
    text = "add got incompatible shapes for broadcasting: \0, \0."
    assert coverage(["incompatible shapes for broadcasting: (3,), (4,)"], text) > 0.75
    assert coverage(["something else entirely"], text) < 0.3
    assert classes_compatible(["TypeError"], "jax._src.core.ConcretizationTypeError")
    assert not classes_compatible(["ValueError"], "TypeError")
    assert classes_compatible(["ValueError", "TypeError"], "TypeError")
    assert classes_compatible(["ValueError"], "jax._src.no_such_module.SomeError")


def test_plugin_keeps_selected_tests_and_spreads_generated_cases():
    from types import SimpleNamespace

    from jax_errors.reproduce.pytest_plugin import _spread, _wanted_method

    class Base: ...

    class FooTest(Base): ...

    def item(name, cls=FooTest):
        return SimpleNamespace(name=name, cls=cls, originalname=None)

    wanted = {"Base": {"testShape"}, None: {"test_free"}}
    assert _wanted_method(item("testShape"), wanted) == "testShape"  # inherited from Base
    assert _wanted_method(item("testShape3"), wanted) == "testShape"
    assert _wanted_method(item("testShape_float32[3]"), wanted) == "testShape"
    assert _wanted_method(item("testShapes"), wanted) is None
    assert _wanted_method(item("test_free", cls=None), wanted) == "test_free"
    assert _spread(list(range(100)), 4) == [0, 33, 66, 99]
    assert _spread(list(range(3)), 10) == [0, 1, 2] and _spread(list(range(5)), 0) == [0, 1, 2, 3, 4]


# Static links against a small synthetic catalogue ----------------------------------------------

PACKAGE = '''\
def broadcast(a, b):
    if len(a) != len(b):
        raise TypeError(f"add got incompatible shapes for broadcasting: {a}, {b}.")
    raise ValueError(f"add got incompatible shapes for broadcasting: {a}, {b}.")


def reshape(x, shape):
    raise TypeError(f"cannot reshape array of shape {x.shape} (size {x.size}) into shape {shape}")


def opaque(message):
    raise ValueError(message)
'''

PACKAGE_TESTS = '''\
from absl.testing import absltest


class ShapesTest(absltest.TestCase):

  def testBroadcast(self):
    with self.assertRaisesRegex(TypeError, r"incompatible shapes for broadcasting: \\(3,\\), \\(4,\\)"):
      broadcast((3,), (4,))

  def testBroadcastValue(self):
    with self.assertRaisesRegex(ValueError, "incompatible shapes for broadcasting"):
      broadcast((3,), (4, 1))

  def testReshape(self):
    with self.assertRaisesWithLiteralMatch(
        TypeError, "cannot reshape array of shape (6,) (size 6) into shape (4,)"):
      reshape(x, (4,))

  def testUnrelated(self):
    with self.assertRaisesRegex(RuntimeError, "something else entirely"):
      other()

  def testAnyMessage(self):
    self.assertRaises(TypeError, broadcast, (3,), (4,))
'''


@pytest.fixture
def mined_repo(git_repo, db_path):
    sha = git_repo.commit({"jax/_src/shapes.py": PACKAGE, "tests/shapes_test.py": PACKAGE_TESTS}, "one",
                          tag="jax-v0.0.1")
    engine = open_database(db_path)
    with JaxRepository(git_repo.path) as repository:
        report = mine_tests(engine, git_tests(repository, "jax-v0.0.1"), package=lambda: repository.snapshot("jax-v0.0.1"))
    return engine, sha, report


def test_static_links_against_a_synthetic_catalogue(mined_repo):
    engine, sha, report = mined_repo
    assert report.commit == sha and report.snapshot == "jax-v0.0.1"
    assert (report.files, report.asserts, report.with_pattern, report.linked) == (1, 5, 4, 3)
    with Session(engine) as session:
        rows = session.execute(
            select(RaisesAssert.method, StaticLink.rank, RaiseSite.lineno, StaticLink.score)
            .join(StaticLink, StaticLink.assert_id == RaisesAssert.id)
            .join(RaiseSite, RaiseSite.id == StaticLink.site_id)
            .order_by(RaisesAssert.lineno, StaticLink.rank)
        ).all()
    best = {method: line for method, rank, line, _score in rows if rank == 0}
    # The class picks the TypeError or the ValueError raise of the same words.
    assert best == {"testBroadcast": 3, "testBroadcastValue": 4, "testReshape": 8}
    scores = {method: score for method, rank, _line, score in rows if rank == 0}
    assert scores["testBroadcastValue"] == 1.0 and 0.6 <= scores["testBroadcast"] < 1.0
    assert all(method != "testBroadcast" or line == 3 for method, _rank, line, _score in rows)


def test_mining_again_replaces_the_commits_asserts(mined_repo, git_repo):
    engine, sha, _report = mined_repo
    with JaxRepository(git_repo.path) as repository:
        again = mine_tests(engine, git_tests(repository, "jax-v0.0.1"))
    assert again.asserts == 5
    with Session(engine) as session:
        assert len(session.scalars(select(RaisesAssert)).all()) == 5
        assert len(session.scalars(select(StaticLink)).all()) == again.links
        stats = trigger_stats(session, sha)
    assert (stats.asserts, stats.linked, stats.files_run, stats.sites_confirmed) == (5, 3, 0, 0)
    assert stats.by_kind == {"assertRaisesRegex": 3, "assertRaisesWithLiteralMatch": 1, "assertRaises": 1}


def test_select_tests_richest_file_first(mined_repo):
    engine, sha, _report = mined_repo
    with Session(engine) as session:
        mined = session.scalars(select(RaisesAssert)).all()
        assert select_tests(mined) == {"tests/shapes_test.py": [
            ("ShapesTest", "testAnyMessage"), ("ShapesTest", "testBroadcast"), ("ShapesTest", "testBroadcastValue"),
            ("ShapesTest", "testReshape"), ("ShapesTest", "testUnrelated"),
        ]}
        assert select_tests(mined, "tests/other_*.py") == {}


def test_cli_mine_stats_and_confirm_refuses_another_commit(git_repo, db_path):
    git_repo.commit({"jax/_src/shapes.py": PACKAGE, "tests/shapes_test.py": PACKAGE_TESTS}, "one")
    runner = CliRunner()
    mined = runner.invoke(cli, ["triggers", "mine", "--repo", str(git_repo.path), "--db", str(db_path)])
    assert mined.exit_code == 0, mined.output
    assert "5 asserts in 1 test files" in mined.stdout and "3 of 4 patterns linked statically" in mined.stdout
    stats = runner.invoke(cli, ["triggers", "stats", "--db", str(db_path)])
    assert "asserts mined        5 (3 assertRaisesRegex" in stats.stdout
    assert "sites confirmed      0" in stats.stdout
    confirm = ["triggers", "confirm", "--repo", str(git_repo.path), "--db", str(db_path)]
    untagged = runner.invoke(cli, confirm)  # the clone holds neither the installed jax's commit nor a release
    assert untagged.exit_code == 1 and untagged.stderr.count("\n") == 1
    assert untagged.stderr.startswith(f"Error: the clone holds no release tag up to jax {jax.__version__}, ")
    assert f"fetch origin tag jax-v{jax.__version__}" in untagged.stderr
    refused = runner.invoke(cli, [*confirm, "--rev", "HEAD"])  # a commit of no release: no jax to run it on
    assert refused.exit_code == 1
    assert refused.stderr.startswith("Error: the tests are of commit ") and refused.stderr.count("\n") == 1


def test_tests_of_another_release_run_in_its_environment(git_repo):
    """A clone without the installed jax's tag confirms at the newest release it holds, and says what to fetch."""
    from jax_errors.crawler.repository import JaxRepository
    from jax_errors.reproduce.confirm import choose_tests

    git_repo.commit({"jax/_src/shapes.py": PACKAGE, "tests/shapes_test.py": PACKAGE_TESTS}, "old", tag="jax-v0.4.1")
    git_repo.commit({"tests/more_test.py": PACKAGE_TESTS}, "newer", tag="jax-v0.4.2")
    git_repo.commit({"tests/later_test.py": PACKAGE_TESTS}, "from the future", tag="jax-v99.0.0")
    with JaxRepository(git_repo.path) as repository:
        chosen = choose_tests(repository, None)
        named = choose_tests(repository, "jax-v0.4.1")
    assert (chosen.rev, chosen.environment_version) == ("jax-v0.4.2", "0.4.2")
    assert chosen.notice.startswith(f"the clone lacks jax-v{jax.__version__}, the installed jax's tag (git -C ")
    assert chosen.notice.endswith("confirming at jax-v0.4.2, the newest release it holds, in that release's environment")
    assert (named.rev, named.environment_version, named.notice) == ("jax-v0.4.1", "0.4.1", None)


# Real runs of synthetic JAX test files ----------------------------------------------------------

# Where `jnp.ones(3) + jnp.ones(4)` raises, per jax version this project may install.
BROADCAST_SITE = {"0.10.2": ("jax/_src/lax/lax.py", 126), "0.12.0.1": ("jax/_src/lax/lax.py", 128),
                  "0.12.1": ("jax/_src/lax/lax.py", 132)}

BROADCAST_TEST = '''\
from absl.testing import absltest
from absl.testing import parameterized
import jax.numpy as jnp
from jax._src import test_util as jtu


class BroadcastTest(jtu.JaxTestCase):

  def testAddShapes(self):
    with self.assertRaisesRegex(TypeError, r"add got incompatible shapes for broadcasting: \\(3,\\), \\(4,\\)"):
      jnp.ones(3) + jnp.ones(4)

  @parameterized.parameters(2, 5)
  def testAddMore(self, n):
    self.assertRaises(TypeError, lambda: jnp.ones(3) + jnp.ones(n))

  def testWrongMessage(self):
    with self.assertRaisesRegex(TypeError, "a message jax never says"):
      jnp.ones(3) + jnp.ones(4)

  def testNotSelected(self):
    raise RuntimeError("this test has no assert, so it never runs")


if __name__ == "__main__":
  absltest.main(testLoader=jtu.JaxTestLoader())
'''

HANGS_TEST = '''\
import time
import unittest


class HangsTest(unittest.TestCase):

  def testHangs(self):
    with self.assertRaises(ValueError):
      time.sleep(1000)
'''

ABORTS_TEST = HANGS_TEST.replace("import time", "import os").replace("time.sleep(1000)", "os.abort()")


@pytest.fixture(scope="module")
def suite(tmp_path_factory, installed_db_path):
    """Synthetic JAX test files mined into a copy of the installed jax's catalogue."""
    root = tmp_path_factory.mktemp("suite")
    (root / "tests").mkdir()
    (root / "tests" / "broadcast_test.py").write_text(BROADCAST_TEST)
    (root / "tests" / "hangs_test.py").write_text(HANGS_TEST)
    (root / "tests" / "aborts_test.py").write_text(ABORTS_TEST)
    db = tmp_path_factory.mktemp("triggers") / "catalogue.db"
    copy_database(installed_db_path, db)
    engine = open_database(db)
    commit = installed_snapshot().commit
    mine_tests(engine, folder_tests(root / "tests", commit=commit))
    return engine, root, commit


@pytest.mark.slow
def test_confirm_a_real_jax_test_file(suite):
    engine, root, commit = suite
    report = confirm_triggers(engine, root, commit=commit, files="tests/broadcast_test.py", timeout=300)
    assert (report.files, dict(report.runs), report.tests_run) == (1, {"ran": 1}, 4)
    assert report.caught == {"confirmed": 3, "mismatch": 1}
    path, line = BROADCAST_SITE[jax.__version__]
    with Session(engine) as session:
        site = site_at(session, find_snapshot(session, jax.__version__), path, line)
        assert site is not None and "incompatible shapes for broadcasting" in site.site.template
        assert report.error_ids == {site.error_id}
        run = session.scalars(select(TriggerRun).where(TriggerRun.path == "tests/broadcast_test.py")).one()
        assert (run.status, run.selected, run.passed, run.failed, run.skipped) == ("ran", 3, 3, 1, 0)
        found = triggers_for_error(session, site.error_id)
        assert [(t.node_id, t.assert_kind, t.pattern) for t in found] == [
            ("tests/broadcast_test.py::BroadcastTest::testAddMore0", "assertRaises", None),
            ("tests/broadcast_test.py::BroadcastTest::testAddMore1", "assertRaises", None),
            ("tests/broadcast_test.py::BroadcastTest::testAddShapes", "assertRaisesRegex",
             r"add got incompatible shapes for broadcasting: \(3,\), \(4,\)"),
        ]
        assert found[2].line == 10 and found[2].commit == commit
        mismatch = session.scalars(select(ConfirmedTrigger).where(ConfirmedTrigger.status == "mismatch")).one()
        assert (mismatch.jax_path, mismatch.jax_line, mismatch.matched) == (path, line, False)
        assert mismatch.node_id.endswith("::testWrongMessage")
        # The static link of the regex already pointed at the site the run confirmed.
        assert [m.method for m, _score in static_links_for_error(session, site.error_id)] == ["testAddShapes"]
        stats = trigger_stats(session, commit)
    assert (stats.asserts_confirmed, stats.sites_confirmed, stats.confirmed_with_link, stats.confirmed_top_link) \
        == (2, 1, 1, 1)
    # The card shows the confirmed tests, linked to their lines on GitHub, in its page and its JSON.
    catalogue = load_catalogue(engine)
    card = catalogue.cards[site.error_id]
    record = records.card_record(card)
    records.validate(record, records.ERROR_SCHEMA)
    confirmed = record["tests"]["confirmed"]
    assert [t["node_id"].rpartition("::")[2] for t in confirmed] == ["testAddMore0", "testAddMore1", "testAddShapes"]
    test_url = f"https://github.com/jax-ml/jax/blob/{commit}/tests/broadcast_test.py#L10"
    assert (confirmed[2]["url"], confirmed[2]["assert"], record["tests"]["linked_statically"]) \
        == (test_url, "assertRaisesRegex", 1)
    page = render_card(card, catalogue)
    assert [(a.line, len(a.node_ids)) for a in card.tested_asserts] == [(10, 1), (confirmed[0]["line"], 2)]
    assert "2 asserts in 3 tests catch it raised here" in page and f'<a href="{test_url}">' in page
    assert "in <code>BroadcastTest::testAddMore0</code> and 1 other test" in page
    assert "1 assert of JAX's tests expects a message this template can produce" in page
    # No case ran, but JAX's tests raise it: the sidebar says both.
    assert ('<dt>Reproduction case</dt><dd><a href="../status/unverified.html"><span class="status '
            'status-unverified">unverified</span></a><br><a class="note" href="#when">JAX\'s tests raise it</a>') in page
    others = [c for c in catalogue.cards.values() if c.id != site.error_id]
    assert all(not c.tests for c in others) and "In JAX's tests" not in render_card(others[0], catalogue)
    assert "tests raise it</a>" not in render_card(others[0], catalogue)


@pytest.mark.slow
def test_hanging_and_crashing_files_are_recorded(suite):
    engine, root, commit = suite
    report = confirm_triggers(engine, root, commit=commit, files="tests/[ha]*_test.py", jobs=2, timeout=5)
    assert dict(report.runs) == {"timeout": 1, "crashed": 1}
    with Session(engine) as session:
        runs = {r.path: r for r in session.scalars(select(TriggerRun).where(TriggerRun.path != "tests/broadcast_test.py"))}
    assert runs["tests/hangs_test.py"].status == "timeout" and runs["tests/hangs_test.py"].exit_code is None
    assert runs["tests/hangs_test.py"].detail.startswith("ran longer than 5 s")
    assert runs["tests/aborts_test.py"].status == "crashed" and runs["tests/aborts_test.py"].exit_code < 0


def test_confirm_needs_mined_asserts(fresh_db, tmp_path):
    with pytest.raises(NotMinedError, match="no asserts mined at 0000000000"):
        confirm_triggers(fresh_db, tmp_path, commit="0" * 40)


# The real test suite --------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.jax_clone
def test_mine_jax_v0_10_2(jax_clone, fresh_db):
    with JaxRepository(jax_clone) as repository:
        report = mine_tests(fresh_db, git_tests(repository, "jax-v0.10.2"))
    assert report.commit == "990e6a0b84138346e6a38785412f36356e0e5dc3"
    assert report.files == 259 and not report.parse_failures
    assert 1500 <= report.by_kind["assertRaisesRegex"] <= 1700
    assert 150 <= report.by_kind["assertRaises"] <= 300
    assert 20 <= report.by_kind["assertRaisesWithLiteralMatch"] <= 60
    assert 1700 <= report.asserts <= 2000
    assert report.snapshot is None and report.linked == 0  # nothing crawled in a fresh database


def test_test_utilities_the_wheel_leaves_out_are_exported_beside_the_tests(git_repo, tmp_path):
    """`jax._src.hypothesis_test_util` is test code: left out of the crawl, yet the tests import it."""
    from jax_errors.crawler.repository import JaxRepository
    from jax_errors.reproduce.jax_tests import missing_test_modules

    commit = git_repo.commit({"jax/_src/core.py": "X = 1\n", "jax/_src/hypothesis_test_util.py": "Y = 2\n"}, "one")
    installed = tmp_path / "site-packages" / "jax"
    (installed / "_src").mkdir(parents=True)
    (installed / "_src" / "core.py").write_text("X = 1\n")
    with JaxRepository(git_repo.path) as repository:
        assert [f.path for f in repository.files(commit)] == ["jax/_src/core.py"]
        missing = missing_test_modules(repository.files(commit, test_code=True), installed)
    assert [f.path for f in missing] == ["jax/_src/hypothesis_test_util.py"]
