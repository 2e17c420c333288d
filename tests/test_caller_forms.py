"""Caller forms: the words callers pass to a helper that raises, and where a caller's message went when it stopped."""

import json
import textwrap

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from jax_errors.crawler.callgraph import CallGraph
from jax_errors.crawler.calls import summarize_calls
from jax_errors.crawler.crawl import crawl_snapshot
from jax_errors.crawler.repository import JaxRepository
from jax_errors.db.caller_forms import CallerForm, callee_raises, caller_forms, form_successors, with_words
from jax_errors.db.engine import open_database
from jax_errors.db.history import ordered_snapshots
from jax_errors.db.models import PassedWords
from jax_errors.lookup.browser import catalogue_index
from jax_errors.lookup.build import open_index
from jax_errors.lookup.index import Query
from jax_errors.site_gen.catalogue import load_catalogue
from jax_errors.site_gen.search import searchable_part
from jax_errors.template import Part, Template

COMMON = '''
    def _check_tree_and_avals(what, tree1, tree2):
        if tree1 != tree2:
            raise TypeError(f"{what} must have identical types, got {tree1} and {tree2}.")

    def check_arraylike(fun_name, x):
        if not hasattr(x, "shape"):
            raise TypeError(f"{fun_name} requires ndarray or scalar arguments, got {type(x)} at position 0.")
'''
LOOPS = '''
    from jax._src.common import _check_tree_and_avals, check_arraylike

    def while_loop(body_fun, init):
        _check_tree_and_avals("body_fun output and input", body_fun(init), init)

    def scan(f, init):
        _check_tree_and_avals("scan carry output and input", f(init), init)

    def fori_loop(body_fun, init):
        _check_tree_and_avals("fori_loop carry output and input", body_fun(init), init)

    def geomspace(x):
        check_arraylike("geomspace", x)
'''
# In v2, while_loop words its check anew in a helper of its own; fori_loop raises an unlike check of the same class;
# scan makes its message from a function of its own; geomspace makes it through a function that passes its words on,
# and makes another message besides.
CARRY = '''
    def _check_carry_type(name, in_carry, out_carry):
        if in_carry != out_carry:
            raise TypeError(f"{name} function carry input and carry output must have equal types, but they "
                            f"differ: {in_carry} vs {out_carry}")

    def _check_bounds(what, lower, upper):
        if lower > upper:
            raise TypeError(f"{what}: lower bound {lower} must not exceed upper bound {upper}")
'''
LOOPS_AFTER = CARRY + '''
    from jax._src.common import _check_tree_and_avals, check_arraylike

    def ensure_arraylike(fun_name, x):
        check_arraylike(fun_name, x)
        if x.dtype == object:
            raise TypeError(f"JAX only supports number and bool dtypes, got dtype {x.dtype} in {fun_name}")

    def while_loop(body_fun, init):
        _check_carry_type("while_loop body", init, body_fun(init))

    def scan(f, init):
        _scan_impl(f, init)

    def _scan_impl(f, init):
        _check_tree_and_avals("scan carry output and input", f(init), init)

    def fori_loop(body_fun, init):
        _check_bounds("fori_loop bounds", init, body_fun(init))

    def geomspace(x):
        ensure_arraylike("geomspace", x)
'''


def summaries(files: dict[str, str]) -> dict[str, dict]:
    return {path: summarize_calls(textwrap.dedent(text), path) for path, text in files.items()}


def test_a_summary_lists_the_words_each_function_passes_and_the_parameters_of_those_that_raise():
    summary = summaries({"jax/_src/loops.py": CARRY + '''
    from jax._src import common

    class Loop:
        def check(self, what):
            raise ValueError(f"{what} is wrong")

        @classmethod
        def make(cls, what):
            raise ValueError(f"{what} cannot be made")

        @staticmethod
        def plain(what):
            raise ValueError(f"{what} is plain")

        @staticmethod
        def relay(what, other):
            other.check("a staticmethod has no self: no pass")
            Loop.check(other, what)

        def run(self, name):
            self.check("the loop body")
            self.helper.strip("a method of what self.helper holds: no pass")
            name = name.upper()
            common.check(name)  # assigned anew: not the words it was passed

    def while_loop(body_fun, *args):
        common.check(f"while_loop body {body_fun}", *args, when="at trace time")
        raise TypeError("its own words are the raise's, not a pass")
        print("not a jax function: no pass")

        def inner(what):
            common.check("an inner function's pass is its own", what)
'''})["jax/_src/loops.py"]
    assert summary["params"] == {
        "_check_carry_type": [["name", "in_carry", "out_carry"], [], "function"],
        "_check_bounds": [["what", "lower", "upper"], [], "function"], "Loop.check": [["self", "what"], [], "method"],
        "Loop.make": [["cls", "what"], [], "classmethod"], "Loop.plain": [["what"], [], "staticmethod"],
        "Loop.relay": [["what", "other"], [], "staticmethod"],
        "while_loop": [["body_fun"], [], "function"],
        # it raises nothing, but passes its own parameter on
        "while_loop.<locals>.inner": [["what"], [], "function"]}
    assert summary["passes"] == {
        "Loop.relay": [["jax._src.loops.Loop.check", {"0": "other", "1": "what"}]],  # its parameters passed on
        "Loop.run": [["~Loop:check", {"0": [["lit", "the loop body"]]}]],
        "while_loop": [["jax._src.common.check", {"0": [["lit", "while_loop body "], ["expr", "body_fun"]],
                                                  "when": [["lit", "at trace time"]]}]],
        "while_loop.<locals>.inner": [
            ["jax._src.common.check", {"0": [["lit", "an inner function's pass is its own"]], "1": "what"}]],
    }


def test_the_graph_joins_passes_to_the_parameters_of_the_function_called():
    graph = CallGraph(summaries({
        "jax/_src/common.py": COMMON + '''
    def quiet(what):
        return what  # raises nothing: words passed to it make no message

    class Loop:
        def check(this, what, *, where):
            raise ValueError(f"{what} is wrong {where}")

        @classmethod
        def make(cls, what):
            raise ValueError(f"{what} cannot be made")

        @staticmethod
        def plain(what):
            raise ValueError(f"{what} is plain")

        def run(self):
            self.check("the loop body", where="in run")
            self.plain("plain words")
    ''',
        "jax/_src/loops.py": '''
            from jax._src.common import _check_tree_and_avals, quiet, Loop

            def while_loop(body_fun, init, loop):
                _check_tree_and_avals("body_fun output and input", body_fun(init), init)
                _check_tree_and_avals(tree1=1, tree2=2, what="by keyword")
                quiet("nothing raised")
                Loop.make("made by its class")
                Loop.check(loop, "checked through the class")
        ''',
    }))
    rows = [(r["qualname"], r["caller_path"], r["caller_qualname"], r["words"]) for r in graph.passed_words()]
    common, loops = "jax/_src/common.py", "jax/_src/loops.py"
    assert rows == [
        # a method called on its instance: the words go to the parameter after the first, whatever its name
        ("Loop.check", common, "Loop.run", {"what": [["lit", "the loop body"]], "where": [["lit", "in run"]]}),
        ("Loop.plain", common, "Loop.run", {"what": [["lit", "plain words"]]}),  # a staticmethod has no `self`
        ("_check_tree_and_avals", loops, "while_loop", {"what": [["lit", "body_fun output and input"]]}),
        ("_check_tree_and_avals", loops, "while_loop", {"what": [["lit", "by keyword"]]}),
        ("Loop.make", loops, "while_loop", {"what": [["lit", "made by its class"]]}),  # a classmethod's `cls` is bound
        # a method called through its class takes its instance first
        ("Loop.check", loops, "while_loop", {"what": [["lit", "checked through the class"]]}),
    ]


def test_words_passed_on_as_they_came_reach_the_function_they_are_passed_to():
    graph = CallGraph(summaries({
        "jax/_src/common.py": COMMON + '''
    def ensure_arraylike(fun_name, x, *, where=None):
        check_arraylike(fun_name, x)
        _ensure_again(where, fun_name)

    def _ensure_again(where, name):
        check_arraylike(name, where)
    ''',
        "jax/_src/numpy.py": '''
            from jax._src.common import ensure_arraylike

            def geomspace(x):
                ensure_arraylike("geomspace", x, where="the start")
        ''',
    }))
    rows = [(r["qualname"], r["caller_qualname"], r["words"]) for r in graph.passed_words()]
    geomspace = [["lit", "geomspace"]]
    assert rows == [("check_arraylike", "geomspace", {"fun_name": geomspace}),  # one call on
                    # two calls on, each word as it was passed to another parameter
                    ("check_arraylike", "geomspace", {"fun_name": geomspace, "x": [["lit", "the start"]]})]
    # ensure_arraylike and _ensure_again raise nothing: no rows of theirs


def test_words_are_passed_on_at_most_three_calls_and_once_through_a_cycle():
    chain = "\n".join(f"def f{i}(what):\n    f{i + 1}(what)\n    f{i + 1}(what)\n"
                      f"    raise ValueError(f'{{what}} at {i}')\n" for i in range(6))
    graph = CallGraph(summaries({"jax/_src/chain.py": chain + '''
def f6(what):
    raise ValueError(f"{what} at 6")

def left(what):
    join(what)

def right(what):
    join(what)

def join(what):
    raise ValueError(f"{what} joined")

def diamond():
    left("words")
    right("words")

def rec(what, depth):
    if depth:
        rec(what, depth - 1)
        rec(what, depth - 2)
    raise ValueError(f"{what} went too deep")

def caller():
    f0("words")
    rec("words", 3)
'''}))
    reached = [(row["caller_qualname"], row["qualname"]) for row in graph.passed_words()]
    # through each of two calls once; down the chain each function once, though each calls the next twice
    assert reached == [("diamond", "join"), ("diamond", "join")] + [
        ("caller", name) for name in ("f0", "f1", "f2", "f3", "rec")]


def test_words_go_in_for_the_placeholders_naming_their_parameters_only():
    template = Template((Part("expr", "what"), Part("lit", " must match "), Part("expr", "what.upper()")))
    made = with_words(template, {"what": [["lit", "branch "], ["expr", "i"]], "other": [["lit", "unused words"]]})
    assert made.text == "branch {i} must match {what.upper()}"
    assert with_words(template, {"other": [["lit", "unused words"]]}) is None
    # `raise ValueError(what)`: the message is the caller's words alone, no form of the raise's
    assert with_words(Template((Part("expr", "what"),)), {"what": [["lit", "all the words"]]}) is None


@pytest.fixture
def loops_db(git_repo, tmp_path):
    git_repo.commit({"jax/_src/common.py": COMMON, "jax/_src/loops.py": LOOPS}, "v1", tag="jax-v0.0.1")
    git_repo.commit({"jax/_src/loops.py": LOOPS_AFTER}, "v2", tag="jax-v0.0.2")
    # a comment at the end: no call summary changes, and the graph is the last one's, copied
    git_repo.commit({"jax/_src/loops.py": LOOPS_AFTER + "\n    # a comment\n"}, "v3", tag="jax-v0.0.3")
    engine = open_database(tmp_path / "loops.db")
    with JaxRepository(git_repo.path) as repository:
        for tag in ("jax-v0.0.1", "jax-v0.0.2", "jax-v0.0.3"):
            crawl_snapshot(engine, repository.snapshot(tag))
    return engine


def test_a_copied_graph_copies_the_passed_words(git_repo, tmp_path, monkeypatch):
    from jax_errors.crawler import entry_points

    copied = []
    real_copy = entry_points._copy_graph
    monkeypatch.setattr(entry_points, "_copy_graph", lambda session, snapshot_id, found: copied.append(snapshot_id)
                        or real_copy(session, snapshot_id, found))
    git_repo.commit({"jax/_src/common.py": COMMON, "jax/_src/loops.py": LOOPS_AFTER}, "v1", tag="jax-v0.0.1")
    git_repo.commit({"jax/_src/loops.py": LOOPS_AFTER + "\n    # a comment\n"}, "v2", tag="jax-v0.0.2")
    engine = open_database(tmp_path / "copied.db")
    with JaxRepository(git_repo.path) as repository:
        for tag in ("jax-v0.0.1", "jax-v0.0.2"):
            crawl_snapshot(engine, repository.snapshot(tag))
    assert copied == [1]
    with Session(engine) as session:
        rows = session.execute(select(PassedWords.snapshot_id, PassedWords.path, PassedWords.qualname,
                                      PassedWords.caller_path, PassedWords.caller_qualname, PassedWords.words)
                               .order_by(PassedWords.id)).all()
    first = [row[1:] for row in rows if row[0] == 1]
    assert len(first) == 5 and [row[1:] for row in rows if row[0] == 2] == first


def test_the_crawl_stores_each_snapshots_passed_words(loops_db):
    with Session(loops_db) as session:
        rows = session.execute(select(PassedWords.snapshot_id, PassedWords.caller_qualname, PassedWords.qualname)
                               .order_by(PassedWords.snapshot_id, PassedWords.id)).all()
    v1 = [("while_loop", "_check_tree_and_avals"), ("scan", "_check_tree_and_avals"),
          ("fori_loop", "_check_tree_and_avals"), ("geomspace", "check_arraylike")]
    # geomspace's words reach both functions that raise with them: the one it calls, and the one that passes them on
    v2 = [("while_loop", "_check_carry_type"), ("_scan_impl", "_check_tree_and_avals"), ("fori_loop", "_check_bounds"),
          ("geomspace", "ensure_arraylike"), ("geomspace", "check_arraylike")]
    # v3 changes no summary: its graph, passed words too, is the last one's, copied
    assert rows == [(1, *row) for row in v1] + [(2, *row) for row in v2] + [(3, *row) for row in v2]


def test_a_form_no_caller_makes_any_more_leads_to_the_alike_one_its_caller_made_instead(loops_db):
    with Session(loops_db) as session:
        forms = caller_forms(session, ordered_snapshots(session))
    made = {f.template.text: (f.first, f.last, sorted(name for _path, name in f.callers[f.last])) for f in forms}
    assert made == {
        "body_fun output and input must have identical types, got {tree1} and {tree2}.": (0, 0, ["while_loop"]),
        # made by another function of scan's from v2 on: made all along
        "scan carry output and input must have identical types, got {tree1} and {tree2}.": (0, 2, ["_scan_impl"]),
        "fori_loop carry output and input must have identical types, got {tree1} and {tree2}.": (0, 0, ["fori_loop"]),
        "while_loop body function carry input and carry output must have equal types, but they differ: "
        "{in_carry} vs {out_carry}": (1, 2, ["while_loop"]),
        "fori_loop bounds: lower bound {lower} must not exceed upper bound {upper}": (1, 2, ["fori_loop"]),
        # through the function passing geomspace's words on: made all along
        "geomspace requires ndarray or scalar arguments, got {type(x)} at position 0.": (0, 2, ["geomspace"]),
        "JAX only supports number and bool dtypes, got dtype {x.dtype} in geomspace": (1, 2, ["geomspace"]),
    }
    ends = form_successors(forms, newest=2)
    # fori_loop's new check holds 2 of its old message's 10 words (`fori_loop`, `must`): no successor
    assert {key[1][:25]: end.template.text[:25] for key, end in ends.items()} == {
        "body_fun output and input": "while_loop body function "}


def test_an_old_callers_message_leads_to_the_card_of_the_check_that_caller_raises_now(loops_db):
    index = open_index(loops_db)
    by_template = {e.template.text[:20]: e for e in index.entries if e.wording_of is None}
    carry, helper = by_template["{name} function carr"], by_template["{what} must have ide"]
    [best, *_] = index.lookup(Query("body_fun output and input must have identical types, got (int32[],) and "
                                    "(float32[],).", "TypeError"))
    assert (best.entry.error_id, best.how, best.worded_until) == (carry.error_id, "template", "jax-v0.0.1")
    assert best.matched.wording_of == helper.error_id
    assert best.matched.template.text.startswith("body_fun output and input must have identical types")
    # scan still makes its message, and fori_loop's went to no alike check: both lead to the helper's card
    for message in ("scan carry output and input must have identical types, got (1,) and (2,).",
                    "fori_loop carry output and input must have identical types, got (1,) and (2,)."):
        [best, *_] = index.lookup(Query(message, "TypeError"))
        assert (best.entry.error_id, best.matched) == (helper.error_id, None)
    [best, *_] = index.lookup(Query("geomspace requires ndarray or scalar arguments, got <class 'list'> at position 0.",
                                    "TypeError"))
    assert (best.entry.error_id, best.matched) == (by_template["{fun_name} requires "].error_id, None)
    assert sum(e.wording_of is not None for e in index.entries) == 1  # while_loop's old message
    # the site's index, made from the catalogue, holds it too: the search page finds what the CLI finds
    assert catalogue_index(load_catalogue(loops_db)).entries == index.entries


# After LOOPS, scan calls a check of its own that words its message itself (jax 0.4.7's `_check_scan_carry_type`),
# passing it no words; fori_loop calls one of unlike words; cond passes its words to the helper.
CALLED_AFTER = '''
    from jax._src.common import _check_tree_and_avals

    def _check_scan_carry_type(body_fun, init, out):
        if init != out:
            raise TypeError("Scanned function carry input and carry output must have identical types, but they "
                            f"differ: {init} vs {out}")

    def _check_bounds(lower, upper):
        if lower > upper:
            raise TypeError(f"lower bound {lower} exceeds upper bound {upper}")

    def scan(f, init):
        _check_scan_carry_type(f, init, f(init))

    def fori_loop(body_fun, init):
        _check_bounds(init, body_fun(init))

    def cond(true_fun, false_fun):
        _check_tree_and_avals("true_fun and false_fun output", true_fun(), false_fun())
'''


def two_loops_releases(git_repo, tmp_path, before: str, after: str):
    """The catalogue of two releases of `loops.py` (COMMON beside it), its caller forms, and the checks their callers
    called instead (`callee_raises`)."""
    git_repo.commit({"jax/_src/common.py": COMMON, "jax/_src/loops.py": before}, "v1", tag="jax-v0.0.1")
    git_repo.commit({"jax/_src/loops.py": after}, "v2", tag="jax-v0.0.2")
    engine = open_database(tmp_path / "loops.db")
    with JaxRepository(git_repo.path) as repository:
        for tag in ("jax-v0.0.1", "jax-v0.0.2"):
            crawl_snapshot(engine, repository.snapshot(tag))
    with Session(engine) as session:
        snapshots = ordered_snapshots(session)
        forms = caller_forms(session, snapshots)
        called = callee_raises(session, snapshots, forms)
    return engine, forms, called


def test_an_old_callers_message_leads_to_the_check_of_its_own_the_caller_called_instead(git_repo, tmp_path):
    engine, forms, called = two_loops_releases(git_repo, tmp_path, LOOPS, CALLED_AFTER)
    # each caller that stopped passing words started calling one check of the class
    assert {key[1][:9]: [check.own.skeleton[:17] for check in checks] for key, checks in called.items()} == {
        "scan carr": ["Scanned function "], "fori_loop": ["lower bound {} ex"]}
    ends = form_successors(forms, 1, lambda unfollowed: called)
    # fori_loop's new check spells no uncommon word of its old message's raise
    assert {key[1][:9]: end.own.skeleton[:17] for key, end in ends.items()} == {"scan carr": "Scanned function "}
    index = open_index(engine)
    own = {e.template.text[:9]: e for e in index.entries if e.wording_of is None}
    [best, *_] = index.lookup(Query("scan carry output and input must have identical types, got (1,) and (2,).",
                                    "TypeError"))
    assert (best.entry.error_id, best.worded_until) == (own["Scanned f"].error_id, "jax-v0.0.1")
    assert best.matched.wording_of == own["{what} mu"].error_id
    [best, *_] = index.lookup(Query("fori_loop carry output and input must have identical types, got (1,) and (2,).",
                                    "TypeError"))
    assert (best.entry.error_id, best.matched) == (own["{what} mu"].error_id, None)
    assert catalogue_index(load_catalogue(engine)).entries == index.entries  # the search page's index holds it too


def test_a_check_the_caller_called_before_it_stopped_passing_words_is_not_what_it_called_instead(git_repo, tmp_path):
    """scan called its own check beside the helper, then the check alone: that check is no new call, so nothing
    follows the message scan made with the helper."""
    beside = CALLED_AFTER.replace("_check_scan_carry_type(f, init, f(init))",
                                  "_check_scan_carry_type(f, init, f(init))\n"
                                  "        _check_tree_and_avals(\"scan carry output and input\", f(init), init)")
    _, forms, called = two_loops_releases(git_repo, tmp_path, beside, CALLED_AFTER)
    [scan] = [f for f in forms if f.template.text.startswith("scan carr")]
    assert scan.last == 0 and called == {}


def test_a_reference_names_a_nested_function_of_the_callers_module_or_a_function_of_a_module_or_package():
    from jax_errors.db.caller_forms import _spellings

    assert _spellings("@scan.<locals>.check", "jax/_src/loops.py") == [("jax/_src/loops.py", "scan.<locals>.check")]
    assert _spellings("jax._src.lax.check", "jax/_src/loops.py") == [
        ("jax/_src/lax.py", "check"), ("jax/_src/lax/__init__.py", "check"),
        ("jax/_src.py", "lax.check"), ("jax/_src/__init__.py", "lax.check"),
        ("jax.py", "_src.lax.check"), ("jax/__init__.py", "_src.lax.check")]
    assert _spellings("numpy.asarray", "jax/_src/loops.py") == []


def form(error_id: str, text: str, callers: dict[int, list[str]], exc_class: str = "TypeError",
         own: str | None = None) -> CallerForm:
    """A form of `text` (`{}` a placeholder), made by functions of `loops.py` by rank; `own`, the raise's own words."""
    def template(words: str) -> Template:
        parts: list[Part] = []
        for i, piece in enumerate(words.split("{}")):
            parts += [Part("expr", "x")] * bool(i) + [Part("lit", piece)] * bool(piece)
        return Template(tuple(parts))
    return CallerForm(error_id, 0, "jax/_src/check.py", exc_class, template(text), template(own or text), 0,
                      {at: {("jax/_src/loops.py", name) for name in names} for at, names in callers.items()})


def successors(*forms: CallerForm, newest: int = 3) -> dict[str, str]:
    return {key[1]: end.template.skeleton for key, end in form_successors(forms, newest).items()}


def test_successors_are_followed_to_a_form_still_made_and_a_chain_ending_in_one_gone_leads_nowhere():
    old = form("e1", "branch 0 and {} outputs must have same type structure, got {}", {0: ["switch"]},
               own="{} must have same type structure, got {}")
    middle = form("e2", "branch 0 output must have same type structure as branch {} output", {1: ["switch"]},
                  own="{} must have same type structure as {}")
    now = form("e3", "switch branch outputs must have the same type structure, but they differ",
               {2: ["switch"], 3: ["_switch_internal"]}, own="{} branch outputs must have the same type structure")
    assert successors(old, middle, now) == {old.template.skeleton: now.template.skeleton,
                                            middle.template.skeleton: now.template.skeleton}
    gone = form("e3", now.template.skeleton, {2: ["switch"]}, own=now.own.skeleton)
    assert successors(old, middle, gone) == {}  # the end is made by no caller of the newest snapshot


def test_a_chain_of_forms_ending_in_one_gone_ends_at_the_check_its_caller_called_instead():
    """jax 0.2.26 reworded the helper's raise (a new form of scan's words, another error) and 0.4.7's scan called a
    check of its own: the old form follows the new one to that check."""
    old = form("e1", "scan carry output and input must have identical types, got {} and {}", {0: ["scan"]},
               own="{} must have identical types, got {} and {}")
    new = form("e2", "scan carry output and input must have identical types, got {}", {1: ["scan"]},
               own="{} must have identical types, got {}")
    called = form("e3", "Scanned function carry input and carry output must have identical types", {2: ["scan"]})
    assert form_successors([old, new], 3) == {}  # the chain ends in a form no caller makes
    ends = form_successors([old, new], 3, lambda unfollowed: {new.key: [called]})
    assert {key: end.error_id for key, end in ends.items()} == {old.key: "e3", new.key: "e3"}


def test_no_successor_without_an_uncommon_word_of_the_raises_own_or_between_two_unlike_errors_alike():
    old = form("e1", "fori_loop carry output and input must have identical types, got {}", {0: ["fori_loop"]},
               own="{} must have identical types, got {}")
    # the caller's words again, to a check of other things: its raise spells `must` alone of the old one's words
    bounds = form("e2", "fori_loop carry output and input: lower bound {} must not exceed {}",
                  {1: ["fori_loop"], 3: ["fori_loop"]},
                  own="{}: lower bound {} must not exceed {}")
    assert successors(old, bounds) == {}
    equal = form("e3", "fori_loop carry output and input must have equal types", {1: ["fori_loop"], 3: ["fori_loop"]},
                 own="{} must have equal types")
    assert successors(old, bounds, equal) == {old.template.skeleton: equal.template.skeleton}
    twin = form("e4", "fori_loop carry input and output must have equal types", {1: ["fori_loop"], 3: ["fori_loop"]},
                own="{} must have equal types")
    assert successors(old, equal, twin) == {}  # as alike, and another error: which one is a guess
    again = form("e3", "fori_loop carry output and input must have equal types!", {1: ["fori_loop"], 3: ["fori_loop"]},
                 own="{} must have equal types!")
    assert successors(old, equal, again, twin) == {}  # two forms of one error as alike as a third error's
    elsewhere = form("e3", equal.template.skeleton, {1: ["other_function"], 3: ["other_function"]},
                     own="{} must have equal types")
    assert successors(old, elsewhere) == {}  # another function started it


def test_a_caller_gone_from_its_file_is_followed_by_its_name():
    old = form("e1", "body_fun output and input must have identical types, got {}", {0: ["while_loop"]},
               own="{} must have identical types, got {}")
    moved = form("e2", "while_loop body carry input and carry output must have equal types", {},
                 own="{} carry input and carry output must have equal types")
    moved.callers = {1: {("jax/_src/lax/loops.py", "while_loop")}, 3: {("jax/_src/lax/loops.py", "while_loop")}}
    assert successors(old, moved) == {old.template.skeleton: moved.template.skeleton}
    stays = form("e9", "an unrelated message of the old file's while_loop",
                 {0: ["while_loop"], 1: ["while_loop"], 3: ["while_loop"]})
    assert successors(old, moved, stays) == {}  # the old file's while_loop still makes a message: it did not move
    # a function of that name elsewhere that made its form before did not move there
    before = form("e2", moved.template.skeleton, {}, own=moved.own.skeleton)
    before.callers = {at: {("jax/_src/lax/loops.py", "while_loop")} for at in (0, 1, 3)}
    assert successors(old, before) == {}


def test_the_card_of_the_check_a_caller_raises_now_lists_the_message_it_made_before(loops_db, tmp_path):
    from jax_errors.site_gen.build import SiteConfig, build_site

    index = open_index(loops_db)
    [old] = [e for e in index.entries if e.wording_of is not None]
    out = build_site(loops_db, SiteConfig(out=tmp_path / "site", knowledge_dir=tmp_path / "none",
                                          cases_dir=tmp_path / "none", search=False)).out
    page = (out / "errors" / f"{old.card_id}.html").read_text()
    shown = page[page.index('<p class="fix-label" id="earlier">Worded earlier as:</p>'):]
    placeholder = '<span class="ph" title="an interpolated value">{{{}}}</span>'.format
    assert " ".join(shown[:shown.index("</ul>")].split()) == (
        '<p class="fix-label" id="earlier">Worded earlier as:</p> <ul class="earlier"> <li><code>body_fun output and '
        f'input must have identical types, got {placeholder("tree1")} and {placeholder("tree2")}.</code> '
        '<span class="note" data-pagefind-ignore>up to jax-v0.0.1, raised by '
        f'<a href="../errors/{old.wording_of}.html">… must have identical types, got … and ….</a> '
        f'<code class="dim">{old.wording_of}</code></span></li>')
    # in the message's section, which full-text search reads: the old words find the card, the note is left out
    assert page.index('id="message-section"') < page.index('id="earlier"') < page.index('id="meaning-section"')
    indexed = searchable_part(page)
    assert "body_fun output and input must have identical types" in indexed and "raised by" not in indexed
    helper = (out / "errors" / f"{old.wording_of}.html").read_text()
    assert 'id="earlier"' not in helper  # it leads elsewhere
    # the JSON export says the same, validated by its schema as the build writes it
    record = json.loads((out / "api" / "errors" / f"{old.card_id}.json").read_text())
    assert record["earlier_messages"] == [{
        "template": "body_fun output and input must have identical types, got {tree1} and {tree2}.",
        "template_parts": [{"kind": "lit", "text": "body_fun output and input must have identical types, got "},
                           {"kind": "expr", "text": "tree1"}, {"kind": "lit", "text": " and "},
                           {"kind": "expr", "text": "tree2"}, {"kind": "lit", "text": "."}],
        "until": "jax-v0.0.1",
        "raised_by": {"id": old.wording_of, "summary": "… must have identical types, got … and …."}}]
    assert record["provenance"]["earlier_messages"] == "extracted"
    assert json.loads((out / "api" / "errors" / f"{old.wording_of}.json").read_text())["earlier_messages"] == []


def test_a_card_shows_its_newest_earlier_message_and_folds_the_rest(loops_db):
    import dataclasses

    from jax_errors.site_gen.build import render_card
    from jax_errors.site_gen.catalogue import _earlier_messages

    catalogue = load_catalogue(loops_db)
    card = next(c for c in catalogue.cards.values() if c.earlier_messages)
    ordered = sorted(catalogue.snapshots, key=lambda s: s.rank)
    helper = card.earlier_messages[0].raised_by.error_id
    entry = next(e for e in catalogue.earlier if e.card_id == card.id)
    older = [dataclasses.replace(entry, template=Template((Part("lit", f"message <{i}> of old"),)), until=label,
                                 error_id=f"older{i}") for i, label in enumerate(["jax-v0.0.1", "jax-v0.0.2"])]
    again = dataclasses.replace(older[1], error_id="again")  # the same words through another id: listed once
    messages = _earlier_messages([*older, entry, again], catalogue.cards, ordered)[card.id]
    assert [(m.template.text, m.until) for m in messages] == [  # newest first, then by words
        ("message <1> of old", "jax-v0.0.2"),
        ("body_fun output and input must have identical types, got {tree1} and {tree2}.", "jax-v0.0.1"),
        ("message <0> of old", "jax-v0.0.1")]
    page = render_card(dataclasses.replace(card, earlier_messages=messages), catalogue)
    shown = page[page.index('id="earlier"'):page.index('<p class="meta-line">')]
    newest, folded = shown.split('<details class="earlier"><summary>2 more</summary>')
    assert "message &lt;1&gt; of old" in newest and "body_fun" not in newest  # escaped, and the newest alone
    assert folded.index("body_fun output") < folded.index("message &lt;0&gt; of old")
    assert folded.count(f'href="../errors/{helper}.html"') == 2
