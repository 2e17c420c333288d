"""Lookup over several snapshots of a synthetic jax: old wordings, removed errors, one message at several sites."""

import json

import pytest
from click.testing import CliRunner

from jax_errors.cli import cli
from jax_errors.crawler.crawl import crawl_snapshot
from jax_errors.crawler.repository import JaxRepository
from jax_errors.db.engine import open_database
from jax_errors.lookup import stored
from jax_errors.lookup.build import open_index
from jax_errors.lookup.index import Query

OLD = {
    "jax/_src/mapping.py": '''
        def check_axes(axes, size):
            if len(axes) != size:
                raise ValueError(f"vmap in_axes must match the number of arguments, got {len(axes)} for {size}")

        def legacy(x):
            raise TypeError(f"the legacy xmap path was removed long ago and nothing replaces it: {x}")
    ''',
    "jax/_src/names.py": '''
        def first(name):
            raise NameError(f"unbound axis name: {name}")
    ''',
    "jax/_src/tiling.py": '''
        def check_tiling(sharding, dim, parts, size):
            if size % parts:
                raise ValueError(f"Sharding {sharding} implies that array axis {dim} is partitioned {parts} "
                                 f"times, but the dimension size is {size}")
    ''',
}
# One wording in two functions: in NEW, one words it on and the other is gone.
DIVIDE = '''
        def {}(a, b):
            raise ValueError(f"Cannot divide evenly the sizes of shapes {{a}} and {{b}}")
    '''
# Two checks whose templates both fit one message: its words follow one further.
OLD["jax/_src/verify.py"] = '''
        def verify_module(lines):
            raise ValueError(f"Cannot lower jaxpr with verifier errors{lines} (see the dump)")

        def verify_operation(lines):
            raise ValueError(f"Cannot lower jaxpr with verifier errors:{lines} (see the dump)")
    '''
OLD["jax/_src/sizes.py"] = DIVIDE.format("divide_sizes")
OLD["jax/_src/polynomial.py"] = DIVIDE.format("divide_symbolic_sizes")
NEW = {
    "jax/_src/polynomial.py": "",
    "jax/_src/sizes.py": '''
        def divide_sizes(a, b):
            raise ValueError(f"Cannot divide evenly the sizes of shapes {a} and {b}. The remainder {a % b} should be 0.")
    ''',
    "jax/_src/mapping.py": '''
        def check_axes(axes, size):
            if len(axes) != size:
                raise ValueError(f"vmap in_axes has {len(axes)} entries but the function takes {size} arguments")
    ''',
    "jax/_src/names.py": '''
        def first(name):
            raise NameError(f"unbound axis name: {name}")

        def second(name):
            raise NameError(f"unbound axis name: {name}")
    ''',
    "jax/_src/tiling.py": '''
        class IndivisibleError(ValueError):
            pass

        def tiling_of(sharding, dim, parts, size):
            if size % parts:
                raise IndivisibleError(f"{sharding} implies that array axis {dim} is partitioned {parts} times, "
                                       f"but the dimension size is {size}")
    ''',
    "jax/_src/carry.py": '''
        def check_carry(shape, before):
            msg = f"scan carry output and input must have the same shape, got {shape}"
            if before is not None:
                msg += f" where the body was given {before} before the first iteration"
            raise TypeError(msg)
    ''',
}


def two_release_catalogue(repo, db):
    """OLD and NEW committed and tagged as two releases in `repo`, crawled into the database `db`."""
    engine = open_database(db)
    repo.commit(OLD, "old", tag="jax-v0.0.1")
    repo.commit(NEW, "new", tag="jax-v0.0.2")
    with JaxRepository(repo.path) as repository:
        for tag in ("jax-v0.0.1", "jax-v0.0.2"):
            crawl_snapshot(engine, repository.snapshot(tag))
    return engine


@pytest.fixture
def history_db(git_repo, tmp_path):
    path = tmp_path / "catalogue.db"
    two_release_catalogue(git_repo, path)
    return path


def test_an_old_wording_leads_to_the_live_card_and_says_until_when(history_db):
    index = open_index(open_database(history_db))
    [best, *_] = index.lookup(Query("vmap in_axes must match the number of arguments, got 2 for 3", "ValueError"))
    assert best.how == "template" and best.entry.live_id == best.entry.error_id
    assert best.entry.template.text.startswith("vmap in_axes has {len(axes)} entries")
    assert best.worded_until == "jax-v0.0.1" and best.matched.template.text.startswith("vmap in_axes must match")
    [now, *_] = index.lookup(Query("vmap in_axes has 2 entries but the function takes 3 arguments", "ValueError"))
    assert (now.entry.error_id, now.matched, now.worded_until) == (best.entry.error_id, None, None)


def test_at_one_score_the_live_card_comes_before_a_retired_one(history_db):
    """Both places raised the message in jax-v0.0.1: one is gone, the other words it on (`sizes.py`)."""
    index = open_index(open_database(history_db))
    first, second = index.lookup(Query("Cannot divide evenly the sizes of shapes (2, 3) and (7,)", "ValueError"))
    assert first.score == second.score and (first.how, second.how) == ("template", "template")
    assert (first.entry.path, first.entry.until, first.worded_until) == ("jax/_src/sizes.py", None, "jax-v0.0.1")
    assert (second.entry.path, second.entry.until) == ("jax/_src/polynomial.py", "jax-v0.0.1")
    assert second.entry.error_id < first.entry.error_id  # not the order of their ids


def test_at_one_score_the_card_whose_leading_words_the_message_follows_comes_first(history_db):
    index = open_index(open_database(history_db))
    first, second = index.lookup(Query("Cannot lower jaxpr with verifier errors: 2 ops (see the dump)", "ValueError"))
    assert first.score == second.score == 1.0
    assert (first.entry.template.text, second.entry.template.text) == (
        "Cannot lower jaxpr with verifier errors:{lines} (see the dump)",
        "Cannot lower jaxpr with verifier errors{lines} (see the dump)")
    assert second.entry.error_id < first.entry.error_id  # not the order of their ids


def test_a_message_pasted_as_a_json_string_is_read_as_the_text_it_encodes(history_db):
    index = open_index(open_database(history_db))
    text = "vmap in_axes has 2 entries but the function takes 3 arguments"
    [plain, *_] = index.lookup(Query(text, "ValueError"))
    [quoted, *_] = index.lookup(Query(json.dumps(text), "ValueError"))
    assert quoted == plain and quoted.how == "template"
    # Quotes that make no JSON string, and a repr's single quotes (a KeyError's message), stay the message's own.
    from jax_errors.lookup.index import unquoted

    assert unquoted('"axis" and "name"') == '"axis" and "name"' and unquoted("'x_axis'") == "'x_axis'"
    assert unquoted('"a\\nb"') == "a\nb"


def test_a_removed_error_is_its_own_card_and_says_so(history_db):
    index = open_index(open_database(history_db))
    [best] = index.lookup("TypeError: the legacy xmap path was removed long ago and nothing replaces it: 3")
    assert best.entry.live_id is None and best.removed_after == "jax-v0.0.1" and best.worded_until is None


def test_a_check_given_its_own_class_leads_its_old_wording_to_today_s_card_at_no_cost(history_db):
    """The `ValueError` once raised is an `IndivisibleError` now, worded alike: its old message finds today's card,
    and the class the message names costs nothing, since the old wording raised it."""
    index = open_index(open_database(history_db))
    message = "Sharding NamedSharding(x) implies that array axis 0 is partitioned 8 times, but the dimension size is 2"
    [best, *_] = index.lookup(Query(message, "ValueError"))
    assert best.entry.exc_class.endswith("IndivisibleError") and best.entry.live_id == best.entry.error_id
    assert best.matched is not None and best.matched.exc_class == "ValueError" and best.removed_after is None
    assert best.score == index.lookup(Query(message, None))[0].score


def test_sites_raising_one_message_are_one_result_and_a_frame_picks_the_site(history_db):
    index = open_index(open_database(history_db))
    [best] = index.lookup(Query("unbound axis name: i", "NameError"))
    assert sorted(s.lineno for s in best.sites) == [2, 5]
    assert best.entry.lineno == best.sites[0].lineno  # no frame: the first site (by id)
    other = next(s for s in best.sites if s is not best.entry)
    traceback = (f'Traceback (most recent call last):\n  File "/x/jax/_src/names.py", line {other.lineno}, in f\n'
                 "NameError: unbound axis name: i\n")
    [framed] = index.lookup(traceback)
    assert framed.entry is other and framed.sites == best.sites


def test_an_optional_part_may_be_absent_from_the_message(history_db):
    """A piece added on one path only: the words of the template's optional part are not required."""
    index = open_index(open_database(history_db))
    [carry] = [e for e in index.entries if e.path == "jax/_src/carry.py"]
    assert "where" not in carry.anchor_words and "scan" in carry.anchor_words
    for message in ["scan carry output and input must have the same shape, got (3,)",
                    "scan carry output and input must have the same shape, got (3,) where the body was given (2,) "
                    "before the first iteration"]:
        [best, *_] = index.lookup(Query(message, "TypeError"))
        assert (best.entry.error_id, best.how) == (carry.error_id, "template")


def test_cli_says_when_no_card_matches_and_when_xla_raised_it(history_db):
    runner = CliRunner()
    xla = runner.invoke(cli, ["lookup", "--db", str(history_db),
                              "XlaRuntimeError: INVALID_ARGUMENT: Disallowed host-to-device transfer: aval=f32[]"])
    assert xla.exit_code == 0 and xla.stdout == "raised inside XLA: no Python raise site\n"
    none = runner.invoke(cli, ["lookup", "--db", str(history_db), "--json", "the weather is lovely today"])
    assert json.loads(none.stdout) == {"verdict": "no card matches this message", "matches": []}
    # A status code in front of a message a Python template fits: XLA once checked it, Python does now.
    prefixed = runner.invoke(cli, ["lookup", "--db", str(history_db), "--json",
                                   "Invalid argument: vmap in_axes has 2 entries but the function takes 3 arguments"])
    [match] = json.loads(prefixed.stdout)["matches"][:1]
    assert match["how"] == "template" and match["template"].startswith("vmap in_axes has")


def test_the_stored_index_is_reused_until_the_database_changes(history_db, git_repo, monkeypatch):
    built = []
    original = stored._built
    monkeypatch.setattr(stored, "_built", lambda db: built.append(db) or original(db))
    first = stored.stored_index(str(history_db))
    again = stored.stored_index(str(history_db))
    assert len(built) == 1 and [e.error_id for e in again.entries] == [e.error_id for e in first.entries]
    assert history_db.with_name(history_db.name + ".lookup").is_file()
    git_repo.commit({"jax/_src/extra.py": "def f():\n    raise KeyError('a third snapshot')\n"}, "more")
    with JaxRepository(git_repo.path) as repository:
        crawl_snapshot(open_database(history_db), repository.snapshot("HEAD"))
    after = stored.stored_index(str(history_db))
    assert len(built) == 2 and len(after.entries) == len(first.entries) + 1


@pytest.mark.slow
def test_accuracy_over_every_release_on_the_package_index(tmp_path, monkeypatch):
    """The figures README "Lookup" claims with history: every release 0.0-0.12.0.1 crawled from its wheel or archive.

    Downloads the 193 releases' files once (about 190 MB, cached under $JAX_ERRORS_CACHE/wheels).
    """
    import jax
    from test_lookup import evaluate, issue_messages

    if jax.__version__ != "0.12.0.1":
        pytest.skip(f"the evaluation set is labelled at jax 0.12.0.1, not {jax.__version__}")
    monkeypatch.delenv("JAX_ERRORS_INDEX_URL")  # the real index, not the tests' offline one
    db = tmp_path / "releases.db"
    result = CliRunner().invoke(cli, ["crawl", "--db", str(db), "--pypi-all", "--jobs", "2"])
    assert result.exit_code == 0, result.output
    from jax_errors.db.queries import snapshot_stats

    assert len(snapshot_stats(open_database(db))) == 193
    index = stored.stored_index(str(db))
    assert evaluate(index, issue_messages()) == (105, 107, 2)
