"""Raised by: the public `jax.*` functions a static call graph finds reaching each raising function."""

import os
import textwrap

import pytest
from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from jax_errors.crawler.callgraph import CallGraph
from jax_errors.crawler.calls import summarize_calls
from jax_errors.crawler.crawl import crawl_snapshot
from jax_errors.crawler.repository import JaxRepository
from jax_errors.db.engine import open_database
from jax_errors.db.models import BlobCalls, RaisedBy, SnapshotCallGraph
from jax_errors.db.queries import PublicCaller
from jax_errors.site_gen.catalogue import load_catalogue
from jax_errors.site_gen.raised_by import callers_of, docs_url

PACKAGE = {
    "jax/__init__.py": '''
        from jax._src.api import run as run
        from jax._src.api import Runner as Runner
        from jax._src import api as _api  # private: not exported
        import numpy as np  # not jax: nothing to resolve
    ''',
    "jax/lax/__init__.py": '''
        from jax._src.prims import foo as foo
        __all__ = ["foo"]
    ''',
    "jax/_src/__init__.py": "",
    "jax/_src/a.py": '''
        def check(x):
            if x < 0:
                raise ValueError("x must be non-negative")
            return x
    ''',
    "jax/_src/b.py": '''
        import jax._src.a as a

        def helper(x):
            return a.check(x)
    ''',
    "jax/_src/api.py": '''
        from jax._src import b
        from . import indexing

        def run(x):
            """Calls b.helper(x) -- the docstring's words are no call."""
            return b.helper(x)

        class Runner:
            def __init__(self, i):
                self.index = indexing.Indexer(i)

            def go(self):
                return self._inner()

            def _inner(self):
                raise RuntimeError("Runner.go is not implemented")
    ''',
    "jax/_src/indexing.py": '''
        class Base:
            def validate(self, i):
                if i is None:
                    raise IndexError("no index")

        class Indexer(Base):
            def __init__(self, i):
                self.validate(i)
    ''',
    "jax/_src/prims.py": '''
        from jax._src.core import Primitive

        foo_p = Primitive("foo")

        def foo(x):
            return foo_p.bind(x)

        def _foo_abstract_eval(x):
            raise TypeError("foo takes no arguments like that")

        foo_p.def_abstract_eval(_foo_abstract_eval)
    ''',
    "jax/_src/core.py": '''
        class Primitive:
            def __init__(self, name):
                self.name = name
    ''',
}


def entries(engine) -> dict[tuple[str, str], list[tuple[str, int, list[str]]]]:
    with Session(engine) as session:
        rows = session.execute(select(RaisedBy).order_by(RaisedBy.path, RaisedBy.qualname)).scalars()
        return {(row.path, row.qualname): [tuple(entry) for entry in row.entries] for row in rows}


def entries_of(engine, snapshot_id: int) -> dict[tuple[str, str], list[tuple[str, int, list[str]]]]:
    with Session(engine) as session:
        rows = session.execute(select(RaisedBy).where(RaisedBy.snapshot_id == snapshot_id)
                               .order_by(RaisedBy.path, RaisedBy.qualname)).scalars()
        return {(row.path, row.qualname): [tuple(entry) for entry in row.entries] for row in rows}


@pytest.fixture
def crawled(git_repo, tmp_path):
    git_repo.commit(PACKAGE, "a package", tag="jax-v0.0.1")
    engine = open_database(tmp_path / "graph.db")
    with JaxRepository(git_repo.path) as repository:
        crawl_snapshot(engine, repository.snapshot("jax-v0.0.1"))
    return engine


EXPECTED = {
    # `from jax._src import b`, then `import jax._src.a as a`; re-exported by jax/__init__.py
    ("jax/_src/a.py", "check"): [
        ("jax.run", 2, ["jax._src.api:run", "jax._src.b:helper", "jax._src.a:check"]),
    ],
    # a public class's public method, through `self._inner()`
    ("jax/_src/api.py", "Runner._inner"): [
        ("jax.Runner.go", 1, ["jax._src.api:Runner.go", "jax._src.api:Runner._inner"]),
    ],
    # calling a class runs its __init__; `self.validate` is found on the base class
    ("jax/_src/indexing.py", "Base.validate"): [
        ("jax.Runner", 4, ["jax._src.api:Runner", "jax._src.api:Runner.__init__", "jax._src.indexing:Indexer",
                           "jax._src.indexing:Indexer.__init__", "jax._src.indexing:Base.validate"]),
    ],
    # `foo_p.bind(x)` reaches the rule registered with `foo_p.def_abstract_eval`
    ("jax/_src/prims.py", "_foo_abstract_eval"): [
        ("jax.lax.foo", 1, ["jax._src.prims:foo", "jax._src.prims:_foo_abstract_eval"]),
    ],
}


def test_public_names_reach_raises_through_imports_re_exports_methods_and_primitives(crawled):
    assert entries(crawled) == EXPECTED
    with Session(crawled) as session:
        [graph] = session.scalars(select(SnapshotCallGraph))
    assert (graph.public_names, graph.functions) == (4, 4)  # jax.run, jax.Runner, jax.Runner.go, jax.lax.foo


def summaries(files: dict[str, str]) -> dict[str, dict]:
    return {path: summarize_calls(textwrap.dedent(text), path) for path, text in files.items()}


CHAIN = {
    "jax/__init__.py": "from jax._src.chain import f0 as f0\nfrom jax._src.chain import ping as ping\n",
    "jax/_src/chain.py": "\n".join(
        [f"def f{i}(x):\n    return f{i + 1}(x)\n" for i in range(10)]
        + ["def f10(x):\n    raise ValueError('deep')\n",
           "def ping(x):\n    return pong(x)\n",
           "def pong(x):\n    if not x:\n        raise ValueError('pong')\n    return ping(x - 1)\n"]),
}


def test_the_search_stops_at_the_depth_limit():
    graph = CallGraph(summaries(CHAIN))
    assert ("jax/_src/chain.py", "f10") not in graph.raised_by(depth=8)
    [entry] = graph.raised_by(depth=10)[("jax/_src/chain.py", "f10")]
    assert (entry.name, entry.length, entry.route[0], entry.route[-1]) == ("jax.f0", 10, "jax._src.chain:f0",
                                                                          "jax._src.chain:f10")


def test_a_cycle_of_calls_ends():
    found = CallGraph(summaries(CHAIN)).raised_by(depth=50)
    assert [(e.name, e.length) for e in found[("jax/_src/chain.py", "pong")]] == [("jax.ping", 1)]


def test_the_nearest_public_names_are_kept_and_ties_prefer_short_names():
    files = {
        "jax/__init__.py": "".join(f"from jax._src.m import api{i} as api{i}\n" for i in range(5)),
        "jax/numpy/__init__.py": "from jax._src.m import api0 as api0\n",
        "jax/_src/m.py": "def shared(x):\n    raise ValueError('x')\n" + "".join(
            f"def api{i}(x):\n    return shared(x)\n" for i in range(5)),
    }
    found = CallGraph(summaries(files)).raised_by(keep=3)[("jax/_src/m.py", "shared")]
    assert [(e.name, e.length) for e in found] == [("jax.api0", 1), ("jax.api1", 1), ("jax.api2", 1)]


def test_a_public_method_reaches_the_overrides_in_subclasses():
    files = {
        "jax/__init__.py": "from jax._src.basearray import Array as Array\n",
        "jax/_src/basearray.py": "class Array:\n    def item(self):\n        raise NotImplementedError\n",
        "jax/_src/array.py": '''
            from jax._src import basearray

            class ArrayImpl(basearray.Array):
                def item(self):
                    if self.size != 1:
                        raise TypeError("only size-1 arrays have an item")
        ''',
    }
    found = CallGraph(summaries(files)).raised_by()
    assert [(e.name, e.route) for e in found[("jax/_src/array.py", "ArrayImpl.item")]] == [
        ("jax.Array.item", ("jax._src.array:ArrayImpl.item",))]


def test_methods_installed_on_jax_array_are_public():
    files = {
        "jax/__init__.py": "",
        "jax/_src/numpy/array_methods.py": '''
            def _compute_newshape(a, shape):
                raise TypeError("cannot reshape")

            def _reshape(a, *args):
                return _compute_newshape(a, args)

            _array_methods = {"reshape": _reshape}
            _array_operators: dict[str, object] = {"getitem": _reshape}
        ''',
    }
    found = CallGraph(summaries(files)).raised_by()
    assert [(e.name, e.length) for e in found[("jax/_src/numpy/array_methods.py", "_compute_newshape")]] == [
        ("jax.Array.__getitem__", 1), ("jax.Array.reshape", 1)]


def test_methods_of_values_made_or_annotated_in_the_function():
    files = {
        "jax/__init__.py": "from jax._src.m import made as made\nfrom jax._src.m import annotated as annotated\n",
        "jax/_src/m.py": '''
            class Indexer:
                @classmethod
                def from_raw(cls, i):
                    return cls()

                def validate(self):
                    raise IndexError("bad index")

            def made(i):
                indexer = Indexer.from_raw(i)
                return indexer.validate()

            def annotated(indexer: Indexer):
                indexer.validate()
        ''',
    }
    found = CallGraph(summaries(files)).raised_by()
    assert [(e.name, e.length) for e in found[("jax/_src/m.py", "Indexer.validate")]] == [
        ("jax.annotated", 1), ("jax.made", 1)]


def test_names_in_strings_comments_and_docstrings_are_no_calls():
    files = {
        "jax/__init__.py": "from jax._src.m import api as api\n",
        "jax/_src/m.py": '''
            def target(x):
                raise ValueError("x")

            def api(x):
                """Unlike target(x), this does nothing."""
                # target(x) would raise
                return "target(x)"
        ''',
    }
    assert CallGraph(summaries(files)).raised_by() == {}


def test_a_catalogue_crawled_before_call_graphs_shows_none_until_crawled_again(crawled, git_repo):
    with Session(crawled) as session, session.begin():  # as an upgraded database has it
        for model in (RaisedBy, SnapshotCallGraph, BlobCalls):
            session.execute(delete(model))
    assert not any(card.callers for card in load_catalogue(crawled).cards.values())
    with JaxRepository(git_repo.path) as repository:
        report = crawl_snapshot(crawled, repository.snapshot("jax-v0.0.1"))
    assert not report.skipped and report.parsed == 0  # no blob scanned again: only the call summaries
    callers = {card.site.qualname: [c.name for c in card.callers] for card in load_catalogue(crawled).cards.values()}
    assert callers == {"check": ["jax.run"], "Runner._inner": ["jax.Runner.go"], "Base.validate": ["jax.Runner"],
                       "_foo_abstract_eval": ["jax.lax.foo"]}
    with JaxRepository(git_repo.path) as repository:
        assert crawl_snapshot(crawled, repository.snapshot("jax-v0.0.1")).skipped



def test_a_commit_changing_no_summary_copies_the_last_graph_and_one_changing_a_call_builds_it(
        crawled, git_repo, monkeypatch):
    built = []
    real_raised_by = CallGraph.raised_by
    monkeypatch.setattr(CallGraph, "raised_by", lambda graph, **kw: built.append(1) or real_raised_by(graph, **kw))
    moved = "# a comment moves the raise\n" + textwrap.dedent(PACKAGE["jax/_src/a.py"]).lstrip("\n")
    git_repo.commit({"jax/_src/a.py": moved}, "move", tag="jax-v0.0.2")
    unreached = PACKAGE["jax/_src/b.py"].replace("return a.check(x)", "return x")
    git_repo.commit({"jax/_src/b.py": unreached}, "a call goes", tag="jax-v0.0.3")
    with JaxRepository(git_repo.path) as repository:
        crawl_snapshot(crawled, repository.snapshot("jax-v0.0.2"))
        assert built == []  # the summaries are the last snapshot's: its graph is copied
        crawl_snapshot(crawled, repository.snapshot("jax-v0.0.3"))
        assert built == [1]
        crawl_snapshot(crawled, repository.snapshot("jax-v0.0.3"), force=True)
        assert built == [1, 1]  # crawled again on purpose: built, not copied from itself
    assert entries_of(crawled, 2) == entries_of(crawled, 1) == EXPECTED
    assert entries_of(crawled, 3) == {key: value for key, value in EXPECTED.items() if key != ("jax/_src/a.py", "check")}
    with Session(crawled) as session:
        counts = {g.snapshot_id: (g.public_names, g.functions) for g in session.scalars(select(SnapshotCallGraph))}
    assert counts == {1: (4, 4), 2: (4, 4), 3: (4, 3)}


def test_a_caller_is_seen_where_a_traceback_went_through_it_or_a_function_defined_in_it():
    vmap = PublicCaller("jax.vmap", 2, ("jax._src.api:vmap", "jax._src.api:vmap.<locals>.vmap_f", "jax._src.b:check"))
    grad = PublicCaller("jax.grad", 1, ("jax._src.api:grad", "jax._src.b:check"))
    itself = PublicCaller("jax.check", 0, ("jax._src.b:check",))
    frames = [{"file": "jax/_src/api.py", "line": 9, "function": "vmap_f"},
              {"file": "jax/_src/b.py", "line": 3, "function": "check"}]
    shown = callers_of([itself, grad, vmap], {"vmap_case": frames})
    assert [(c.name, c.seen_in) for c in shown] == [("jax.vmap", ("vmap_case",)), ("jax.check", ()), ("jax.grad", ())]
    assert shown[0].route == ("jax._src.api.vmap", "jax._src.api.vmap.<locals>.vmap_f", "jax._src.b.check")


def test_docs_urls_are_formed_for_documented_modules_only():
    assert docs_url("jax.numpy.take") == "https://docs.jax.dev/en/latest/_autosummary/jax.numpy.take.html"
    assert docs_url("jax.jit") == "https://docs.jax.dev/en/latest/_autosummary/jax.jit.html"
    assert docs_url("jax.Array.reshape", is_method=True) == (
        "https://docs.jax.dev/en/latest/_autosummary/jax.Array.html#jax.Array.reshape")
    assert docs_url("jax.interpreters.ad.linearize") is None
    assert docs_url("jax.experimental.pallas.ops.tpu.flash_attention.flash_attention") is None


# The installed jax ------------------------------------------------------------------------------

SEED_ERROR = "252d5ba9437acc7a"  # all_gather_reduced only accepts inputs that are varying
JIT_ARGUMENT_ERROR = "61e117e55e48e65a"  # Error interpreting argument to … as an abstract array
TRACED_LENGTH_ERROR = "12d56306abf9f91b"  # ConcretizationTypeError of core.concrete_or_error


@pytest.fixture(scope="module")
def installed_cards(crawled_db):
    return load_catalogue(crawled_db).cards


def test_the_seed_error_is_raised_by_a_public_lax_function(installed_cards):
    card = installed_cards[SEED_ERROR]
    assert card.location.path == "jax/_src/lax/parallel.py"
    first = card.callers[0]
    assert (first.name, first.length, first.url) == (
        "jax.lax.all_gather", 4, "https://docs.jax.dev/en/latest/_autosummary/jax.lax.all_gather.html")
    assert first.route == ("jax._src.lax.parallel.all_gather", "jax._src.lax.parallel._all_gather_is_async",
                           "jax._src.lax.parallel.all_gather_reduced",
                           "jax._src.lax.parallel.all_gather_reduced.<locals>.bind",
                           "jax._src.lax.parallel._all_gather_reduced_effectful_abstract_eval")


def test_jit_and_tracer_errors_are_raised_by_public_functions(installed_cards):
    jit = installed_cards[JIT_ARGUMENT_ERROR].callers[0]
    assert (jit.name, jit.route[0], jit.route[-1]) == ("jax.jit", "jax._src.api.jit", "jax._src.pjit._infer_input_type")
    traced = {c.name: c.length for c in installed_cards[TRACED_LENGTH_ERROR].callers}
    assert traced["jax.lax.broadcasted_iota"] == 1 and traced["jax.Array.item"] == 1


def test_most_installed_cards_say_what_raises_them(installed_cards):
    live = [card for card in installed_cards.values() if not card.retired]
    share = sum(1 for card in live if card.callers) / len(live)
    assert share > 0.8, f"{share:.1%}"


@pytest.mark.slow
def test_the_seed_card_shows_its_reproduction_went_through_jax_lax_all_gather(built_site):
    from site_pages import read, section

    card = section(read(built_site.out, f"errors/{SEED_ERROR}.html"), "raised-by")
    first = card.index("</code></a>")  # the first function listed: the one the reproduction went through
    assert card[:first].endswith("jax.<wbr>lax.<wbr>all_<wbr>gather") and card.count("</code></a>") > 1
    assert "seen in the traceback of case <code>all_<wbr>gather_<wbr>reduced_<wbr>not_<wbr>varying</code>" in card


def test_with_two_jobs_the_graph_is_made_on_the_second_core_and_stored_the_same(git_repo, tmp_path, monkeypatch,
                                                                                 forking):
    from jax_errors.crawler import entry_points

    git_repo.commit(PACKAGE, "a package", tag="jax-v0.0.1")
    made_in = tmp_path / "made-in"
    real_graph = entry_points._graph

    def noted(found, summaries):
        made_in.write_text(str(os.getpid()))  # the child's result comes back pickled: the pid goes by file
        return real_graph(found, summaries)

    monkeypatch.setattr(entry_points, "_graph", noted)
    engines = {jobs: open_database(tmp_path / f"jobs{jobs}.db") for jobs in (1, 2)}
    with JaxRepository(git_repo.path) as repository:
        for jobs, engine in engines.items():
            crawl_snapshot(engine, repository.snapshot("jax-v0.0.1"), jobs=jobs)
            assert (made_in.read_text() != str(os.getpid())) == (jobs == 2)
    assert entries_of(engines[2], 1) == entries_of(engines[1], 1) == EXPECTED


def test_a_retired_error_shows_who_called_it_in_the_last_snapshot_that_raised_it(crawled, git_repo):
    source = textwrap.dedent(PACKAGE["jax/_src/a.py"]).lstrip("\n")
    gone = source.replace('raise ValueError("x must be non-negative")', "x = 0")
    assert gone != source
    git_repo.commit({"jax/_src/a.py": gone}, "the raise goes", tag="jax-v0.0.4")
    with JaxRepository(git_repo.path) as repository:
        crawl_snapshot(crawled, repository.snapshot("jax-v0.0.4"))
    [retired] = [card for card in load_catalogue(crawled).cards.values() if card.history.retired_since]
    assert retired.site.qualname == "check"
    assert [(c.name, c.length) for c in retired.public_callers] == [("jax.run", 2)]


def test_a_graph_started_on_the_second_core_is_stopped_when_comparing_it_with_the_last_fails(
        crawled, git_repo, monkeypatch, forking):
    from jax_errors.crawler import entry_points
    from jax_errors.forked import Forked

    stopped = []
    real_stop = Forked.stop
    monkeypatch.setattr(Forked, "stop", lambda self: stopped.append(self.in_child) or real_stop(self))

    def fails(*args, **kwargs):
        raise RuntimeError("the database went away")
    monkeypatch.setattr(entry_points, "_snapshot_with_summaries", fails)
    with JaxRepository(git_repo.path) as repository:
        with pytest.raises(RuntimeError, match="went away"):
            entry_points.start_call_graph(crawled, repository.snapshot("jax-v0.0.1"), [], fork=True)
    assert stopped == [True]  # a child was running, and was stopped
