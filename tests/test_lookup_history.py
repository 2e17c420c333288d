"""Lookup over several snapshots of a synthetic jax: old wordings, removed errors, one message at several sites."""

import json

import pytest
from click.testing import CliRunner
from sqlalchemy.orm import Session

from jax_errors.cli import cli
from jax_errors.crawler.crawl import crawl_snapshot
from jax_errors.crawler.history import crawl_history
from jax_errors.crawler.repository import JaxRepository
from jax_errors.db.engine import open_database
from jax_errors.db.history import catalogue_history
from jax_errors.lookup import stored
from jax_errors.lookup.build import open_index
from jax_errors.lookup.index import FIRST_LINE_CEILING, FUZZY_CEILING, Query, first_sentences, parse_query

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
# A check whose data a class carries, from where it fails to the clause that words the message.
OLD["jax/_src/axes.py"] = '''
        def matchaxis(src, dst):
            raise ValueError(f"vmap has mapped output but out_axes is {dst}")
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
    "jax/_src/axes.py": '''
        class SpecMatchError(Exception):
            def __init__(self, leaf, src, dst):
                self.leaf, self.src, self.dst = leaf, src, dst

        def matchaxis(src, dst):
            raise SpecMatchError(None, src, dst)

        def from_elt(i):
            try:
                return matchaxis(0, None)
            except SpecMatchError as e:
                raise SpecMatchError(i, e.src, e.dst)

        def vmap_f(f):
            try:
                return from_elt(0)
            except SpecMatchError as e:
                raise ValueError(f"at vmap out_axes{e.leaf}, got axis spec {e.dst} but output was batched on axis {e.src}")
    ''',
    # One message worded at two sites, one quoting the names itself, the other through `!r`.
    "jax/_src/lazy.py": '''
        def lazy_getattr(package_name, name):
            raise AttributeError(f"module '{package_name}' has no attribute '{name}'")
    ''',
    "jax/_src/deprecated.py": '''
        def deprecated_getattr(module, name):
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
    ''',
    # A message of two sentences, the first of which is nearly another's whole message.
    "jax/_src/callbacks.py": '''
        def pure_transpose(*args):
            raise ValueError("Pure callbacks do not support transpose. Please use `jax.custom_vjp` to use "
                             "callbacks while taking gradients.")

        def io_transpose(*args):
            raise ValueError("IO callbacks do not support transpose.")
    ''',
    "jax/_src/carry.py": '''
        def check_carry(shape, before):
            msg = f"scan carry output and input must have the same shape, got {shape}"
            if before is not None:
                msg += f" where the body was given {before} before the first iteration"
            raise TypeError(msg)
    ''',
}
# A class that words its message itself, reworded while the raise of it stood.
TRACER_INDEX_ERROR = '''
        class TracerIndexError(TypeError):
            def __init__(self, tracer):
                super().__init__(f"The __index__() method was called on {}")
    '''
OLD["jax/_src/errs.py"] = TRACER_INDEX_ERROR.format("the JAX Tracer object {tracer}")
OLD["jax/_src/tracers.py"] = '''
        from jax._src.errs import TracerIndexError

        def index(tracer):
            raise TracerIndexError(tracer)
    '''
NEW["jax/_src/errs.py"] = TRACER_INDEX_ERROR.format("{tracer}, known only when the function runs")
# Makers of exceptions that one module's function yields, raised in another by names that say nothing of their class.
NEW["jax/_src/prefixes.py"] = '''
        def _prefix_error(path, prefix, full):
            if type(prefix) != type(full):
                yield lambda name: ValueError(f"pytree structure error: different types at key path {name}{path}")
                return
            if len(prefix) != len(full):
                yield lambda name: ValueError(f"pytree structure error: different lengths at key path {name}{path}")

        def prefix_errors(prefix, full):
            return list(_prefix_error((), prefix, full))
    '''
NEW["jax/_src/specs.py"] = '''
        from jax._src import prefixes

        def check_in_specs(specs, args):
            e, *_ = prefixes.prefix_errors(specs, args)
            raise e("shard_map in_specs")

        def check_out_specs(specs, outs):
            err = prefixes.prefix_errors(specs, outs)[0]
            raise err("shard_map out_specs") from None
    '''

# One class words the message of four raises, each passing it a context: the words a raise passes pick its site.
NEW["jax/_src/concrete.py"] = '''
        class ConcretizationError(Exception):
            def __init__(self, tracer, context=""):
                super().__init__(f"Abstract tracer value encountered where concrete value is expected: {tracer}\\n"
                                 f"{context}")

        class Tracer:
            def delete(self):
                raise ConcretizationError(self, f"The delete() method was called on {self}.")

            def devices(self):
                raise ConcretizationError(self, f"The devices() method was called on {self}.")

        def function_error(fun):
            fname_context = f"The problem arose with the `{fun.__name__}` function. "
            def error(self, arg):
                raise ConcretizationError(arg, fname_context)
            return error

        def unrelated():
            context = "Words of another function, which the next one does not pass."
            return context

        def concrete_or_error(val, context=""):
            raise ConcretizationError(val, context)
    '''
CONCRETE = "ConcretizationError: Abstract tracer value encountered where concrete value is expected: Traced<f32[]>\n"


def two_release_catalogue(repo, db):
    """OLD and NEW committed and tagged as two releases in `repo`, crawled into the database `db`."""
    repo.commit(OLD, "old", tag="jax-v0.0.1")
    repo.commit(NEW, "new", tag="jax-v0.0.2")
    return two_release_snapshots(repo, db)


def two_release_snapshots(repo, db):
    """The releases jax-v0.0.1 and jax-v0.0.2 of `repo` crawled into the database `db`."""
    return crawled_releases(repo, db, 2)


def crawled_releases(repo, db, count):
    """The releases jax-v0.0.1 to jax-v0.0.`count` of `repo` crawled into the database `db`: its engine."""
    engine = open_database(db)
    with JaxRepository(repo.path) as repository:
        for n in range(1, count + 1):
            crawl_snapshot(engine, repository.snapshot(f"jax-v0.0.{n}"))
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


def test_of_the_sites_raising_one_message_the_words_one_passes_pick_it(history_db):
    """Four raises of one class-worded message: the words a raise passes (in the statement, or assigned in its function
    to a name it passes) pick its site; a message holding none of them is from the site passing none; a traceback's
    frame still picks first."""
    index = open_index(open_database(history_db))
    heads = {}
    for context in ("The delete() method was called on Traced<f32[]>.",
                    "The devices() method was called on Traced<f32[]>.",
                    "The problem arose with the `float` function.",
                    "Words of another function, which the next one does not pass.",
                    "The axis argument must be known statically."):
        [best] = index.lookup(CONCRETE + context)
        assert len(best.sites) == 4 and best.how == "template"
        heads[context.split()[1]] = best.entry.lineno
    sites = {s.lineno: s for s in best.sites}
    assert heads == {"delete()": 8, "devices()": 11, "problem": 16, "of": 24, "axis": 24}
    assert sites[16].said == ("The problem arose with the `",)  # `` ` function.`` is one word: too few
    assert sites[24].said == ()  # `unrelated`'s assignment to `context` is another function's
    frame = 'Traceback (most recent call last):\n  File "/x/jax/_src/concrete.py", line 11, in devices\n'
    [framed] = index.lookup(frame + CONCRETE + "The delete() method was called on Traced<f32[]>.")
    assert framed.entry.lineno == 11
    # The CLI says which words told the site.
    deleted = CONCRETE + "The delete() method was called on x."
    shown = CliRunner().invoke(cli, ["lookup", "--db", str(history_db), deleted])
    assert "jax/_src/concrete.py:8 " in shown.stdout
    assert "      this site's own words: 'The delete() method was called on'\n" in shown.stdout


def test_of_the_sites_raising_one_message_one_raised_today_is_named_first():
    """`iteration over a 0-d array`: `parallel.py` raised it until jax 0.1.16 and has the smallest id; `array.py`
    raises it now, and the result is its card, naming the other sites too."""
    from jax_errors.lookup.index import Entry, LookupIndex
    from jax_errors.template import Part, Template

    words = Template((Part("lit", "iteration over a 0-d array"),))
    gone = Entry("0" * 16, "TypeError", words, "jax/interpreters/parallel.py", 215, "jax-v0.1.16",
                 live_id=None, until="jax-v0.1.16")
    today = Entry("9" * 16, "TypeError", words, "jax/_src/array.py", 199, "jax-v0.12.1", live_id="9" * 16)
    also = Entry("5" * 16, "TypeError", words, "jax/_src/earray.py", 58, "jax-v0.12.1", live_id="5" * 16)
    for entries in ([gone, today], [today, gone], [gone, today, also]):
        [best] = LookupIndex(entries).lookup(Query("iteration over a 0-d array", "TypeError"))
        assert best.entry.error_id == min(e.error_id for e in entries if e.until is None)
        assert best.removed_after is None and {s.error_id for s in best.sites} == {e.error_id for e in entries}


def test_raises_of_what_makers_make_have_the_class_they_make_and_one_message_gives_one_result(history_db):
    index = open_index(open_database(history_db))
    message = "pytree structure error: different lengths at key path shard_map in_specs"
    [best] = index.lookup(Query(message, "ValueError"))
    [classless] = index.lookup(Query(message, None))
    assert best.entry.exc_class == "ValueError" and best.score == classless.score  # the class costs nothing
    assert sorted((s.path, s.lineno) for s in best.sites) == [("jax/_src/specs.py", 5), ("jax/_src/specs.py", 9)]


def test_an_earlier_wording_a_class_made_leads_to_the_card_of_the_raise_that_stood(history_db):
    """`raise TracerIndexError(tracer)` kept its id while the class's `__init__` was reworded: its message as the
    first release worded it leads to its card, and says until when."""
    index = open_index(open_database(history_db))
    [old] = index.lookup(Query("The __index__() method was called on the JAX Tracer object Traced<int32[]>",
                               "TypeError"))
    assert (old.entry.path, old.entry.until, old.worded_until) == ("jax/_src/tracers.py", None, "jax-v0.0.1")
    assert old.matched.error_id != old.entry.error_id and old.matched.live_id == old.entry.error_id
    [new] = index.lookup(Query("The __index__() method was called on Traced<int32[]>, known only when the function "
                               "runs", "TypeError"))
    assert new.entry is old.entry and new.worded_until is None
    # The site's index, made from the loaded cards, holds the same entries.
    from jax_errors.lookup.browser import catalogue_index
    from jax_errors.site_gen.catalogue import load_catalogue

    assert catalogue_index(load_catalogue(open_database(history_db))).entries == index.entries
    # The wording has no card of its own: asked for by its id, `explain` gives the card it leads to.
    from jax_errors.explainer.api import explain

    assert old.matched.wording_of == old.entry.error_id
    [card] = explain(old.matched.error_id, db=str(history_db))
    assert card.error_id == old.entry.error_id


def test_the_card_of_what_makers_make_shows_each_message_and_the_class_they_make(history_db, tmp_path):
    from jax_errors.site_gen.build import SiteConfig, build_site

    index = open_index(open_database(history_db))
    [checked] = [e for e in index.entries if e.path == "jax/_src/specs.py" and e.lineno == 9]
    out = build_site(open_database(history_db), SiteConfig(out=tmp_path / "site", knowledge_dir=tmp_path / "none",
                                                           cases_dir=tmp_path / "none", search=False)).out
    page = (out / "errors" / f"{checked.error_id}.html").read_text()
    assert "<title>pytree structure error: different … · jax-errors</title>" in page  # the words both share
    assert "One of 2 messages:" in page and '<details class="alternatives"><summary>1 more</summary>' in page
    shown = page[page.index('id="message-section"'):]
    assert shown.index("different types at key path") < shown.index("<details") < shown.index("different lengths")
    assert "Exception class <code>ValueError</code> (raised as <code>err</code>, which a function of JAX makes)" \
        in page and "raised <code>from None</code>" in page
    assert "by <code>jax.<wbr>_src.<wbr>prefixes.<wbr>prefix_<wbr>errors</code>" in page


def test_a_placeholder_converted_by_repr_words_the_message_of_one_in_quotes(history_db):
    index = open_index(open_database(history_db))
    [best] = index.lookup(Query("module 'jax' has no attribute 'partial'", "AttributeError"))
    assert sorted(s.path for s in best.sites) == ["jax/_src/deprecated.py", "jax/_src/lazy.py"]
    [unquoted] = index.lookup(Query("module jax has no attribute partial", "AttributeError"))
    assert unquoted.entry.path == "jax/_src/deprecated.py" and unquoted.how == "template"


def test_a_class_that_carries_data_to_one_except_clause_leads_to_the_message_it_words(history_db):
    """`SpecMatchError` has no words; `vmap_f` catches it and raises the message users read. The old wording of the
    check, which the lineage leads to the bare class, leads there too."""
    index = open_index(open_database(history_db))
    [handler] = [e for e in index.entries if e.template.skeleton.startswith("at vmap out_axes")]
    bare = [e for e in index.entries if e.exc_class.endswith("SpecMatchError")]
    assert len(bare) == 2 and {e.live_id for e in bare} == {handler.error_id}  # matchaxis's and from_elt's
    [best] = index.lookup(Query("vmap has mapped output but out_axes is None", "ValueError"))
    assert best.entry is handler and best.worded_until == "jax-v0.0.1" and best.removed_after is None


def test_a_message_cut_after_its_first_sentence_fits_its_template_fully(history_db):
    """`Pure callbacks do not support transpose.`, its advice left out, reads more like another template's
    whole message (`IO callbacks ...`) than like its own; as its own template's first sentence, it fits that one
    best (as a fuzzy key's first sentences, it would score the same: `first_sentences`)."""
    index = open_index(open_database(history_db))
    [pure, io, *_] = index.lookup(Query("Pure callbacks do not support transpose.", "ValueError"))
    assert (pure.entry.lineno, pure.how, pure.score) == (2, "first-sentence", FIRST_LINE_CEILING)
    assert io.entry.lineno == 6 and io.score < pure.score
    [whole, *_] = index.lookup(Query("IO callbacks do not support transpose.", "ValueError"))
    assert (whole.entry.lineno, whole.how) == (6, "template") and whole.score > FUZZY_CEILING


def test_a_cut_is_made_after_a_sentence_of_enough_words():
    assert first_sentences("pure callbacks do not support transpose.", "pure callbacks do not support transpose. x")
    assert not first_sentences("callbacks do not.", "callbacks do not. support transpose")  # 3 words
    assert not first_sentences("pure callbacks do not", "pure callbacks do not support transpose")  # no sentence
    assert not first_sentences("see the docs of jax.numpy.", "see the docs of jax.numpy.linalg here")  # no space next


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
    assert json.loads(none.stdout) == {"verdict": "no card matches this message", "releases_say": None, "matches": []}
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
# It downloads about 190 MB from the package index and crawls 194 releases: about 10 minutes alone, and more than
# the 15 the suite gives a test to catch a hang in one fresh-clone CI run.
@pytest.mark.timeout(1800)
def test_accuracy_over_every_release_on_the_package_index(tmp_path, monkeypatch):
    """The figures README "Lookup" claims with history: every release 0.0-0.12.1 crawled from its wheel or archive.

    Downloads the 194 releases' files once (about 190 MB, cached under $JAX_ERRORS_CACHE/wheels). Releases the
    index gains after the one the evaluation set is labelled at (`LABELLED_AT`) are left out: the figures are of
    those 194.
    """
    import jax
    from test_lookup import LABELLED_AT, evaluate, first_lines, headlines, issue_messages

    from jax_errors.crawler.releases import list_releases
    from jax_errors.snapshots import version_key

    if jax.__version__ != LABELLED_AT:
        pytest.skip(f"the evaluation set is labelled at jax {LABELLED_AT}, not {jax.__version__}")
    monkeypatch.delenv("JAX_ERRORS_INDEX_URL")  # the real index, not the tests' offline one
    db = tmp_path / "releases.db"
    versions = [r.version for r in list_releases() if version_key(r.version) <= version_key(LABELLED_AT)]
    pinned = [arg for version in versions for arg in ("--pypi", version)]
    result = CliRunner().invoke(cli, ["crawl", "--db", str(db), *pinned, "--jobs", "2"])
    assert result.exit_code == 0, result.output
    from jax_errors.db.queries import snapshot_stats

    assert len(snapshot_stats(open_database(db))) == 194
    index = stored.stored_index(str(db))
    assert evaluate(index, issue_messages()) == (134, 134, 3)
    assert evaluate(index, first_lines(issue_messages())) == (33, 34, 2)
    # The card shown is the labelled site's own, not another site's of the message (README "One message, several
    # sites").
    assert (headlines(index, issue_messages()), headlines(index, first_lines(issue_messages()))) == (122, 26)
    # What the releases say of the modules and names real messages say are missing (README "Modules and names the
    # releases lacked").
    from test_name_history import missing_name_messages

    cases = missing_name_messages()
    assert [index.name_said(case["message"]) for case in cases] == [case["said"] for case in cases]


def test_the_history_line_links_a_check_rewritten_in_steps_between_two_releases(git_repo, tmp_path):
    """Moved to another file in one commit and reworded in the next: the releases' diff sees an error gone and an
    unlike one come, the commits see two small steps. With the line crawled, the old wording leads to today's card."""
    old = "pmap requires a leading axis to map over."
    new = "pmap requires at least one argument with a mapped axis."
    git_repo.commit({"jax/_src/api.py": f'''
        def _pmap_axis_size(args):
            if not args:
                raise ValueError("{old}")
    '''}, "v1", tag="jax-v0.0.1")
    git_repo.commit({"jax/_src/api.py": "X = 1\n", "jax/_src/pmap.py": f'''
        def _mapped_axis_size(args):
            if not args:
                raise ValueError("{old}")
    '''}, "move")
    git_repo.commit({"jax/_src/pmap.py": f'''
        def _mapped_axis_size(args):
            if not args:
                raise ValueError("{new}")
    '''}, "reword", tag="jax-v0.0.2")
    db = tmp_path / "catalogue.db"
    engine = two_release_snapshots(git_repo, db)
    [before] = open_index(engine).lookup(Query(old, "ValueError"))
    assert before.entry.path == "jax/_src/api.py" and before.removed_after == "jax-v0.0.1"
    with JaxRepository(git_repo.path) as repository:
        crawl_history(engine, repository)
    [after] = open_index(engine).lookup(Query(old, "ValueError"))
    assert after.entry.path == "jax/_src/pmap.py" and after.entry.live_id == after.entry.error_id
    assert after.removed_after is None
    assert after.matched is not None and after.worded_until == "jax-v0.0.1"
    with Session(engine) as session:
        history = catalogue_history(session)
    assert history.errors[before.entry.error_id].reworded_to == [after.entry.error_id]


def test_a_check_dropped_from_a_function_that_still_raises_is_not_the_check_another_function_gained(git_repo,
                                                                                                     tmp_path):
    """`broadcast_in_dim` drops its layout check and keeps raising; `reshape` gains a check of its own, the only
    `ValueError` its file gained, words somewhat alike: neither the releases' diff nor the commit line links them."""
    from sqlalchemy import select

    from jax_errors.db.models import HistoryEvent

    broadcast = '''
        def broadcast_in_dim(x, shape):
            if x.ndim > len(shape):
                raise NotImplementedError("Only broadcasting to a higher rank is supported")
            {}
    '''
    dropped = 'raise ValueError(f"Layout shape {x.shape} does not match broadcast shape {shape}")'
    gained = '''
        def reshape(x, shape):
            raise ValueError(f"Can't reshape {x} to {shape} with a tiled layout with base tile of {x.tile}")
    '''
    git_repo.commit({"jax/fragmented_array.py": broadcast.replace("{}", dropped)}, "v1", tag="jax-v0.0.1")
    git_repo.commit({"jax/fragmented_array.py": broadcast.replace("{}", "") + gained}, "v2", tag="jax-v0.0.2")
    engine = two_release_snapshots(git_repo, tmp_path / "catalogue.db")
    with JaxRepository(git_repo.path) as repository:
        crawl_history(engine, repository)
    with Session(engine) as session:
        history = catalogue_history(session)
        kinds = sorted(session.scalars(select(HistoryEvent.kind).where(HistoryEvent.previous_id.is_not(None))))
    by_words = {e.template.text.partition(" ")[0]: e.error_id for e in open_index(engine).entries}
    old, new = history.errors[by_words["Layout"]], history.errors[by_words["Can't"]]
    assert (old.retired_since.tag, new.first.tag) == ("jax-v0.0.2", "jax-v0.0.2")
    assert (old.reworded_to, old.moved_to, new.predecessors) == ([], [], [])
    assert kinds == []


def test_a_lineage_removed_for_a_like_check_leads_there_from_its_first_wording(git_repo, tmp_path):
    """Moved to another file, reworded there, then dropped for a like check of that file: the first wording, which
    reads less like that check and was raised in a file without it, leads there through its last wording."""
    first = "Array slice indices must have static start/stop/step to be used with NumPy indexing syntax."
    last = "Slice indices must be static integers to be used with NumPy indexing syntax."
    like = '''
        def validate_slices(s, i):
            raise IndexError(f"Slice entries must be static integers to be used with NumPy indexing syntax. At {i}: {s}")
    '''
    gather = '''
        def _index_to_gather(x):
            raise IndexError("{}")
    '''
    git_repo.commit({"jax/_src/numpy/lax_numpy.py": gather.format(first)}, "v1", tag="jax-v0.0.1")
    git_repo.commit({"jax/_src/numpy/lax_numpy.py": "X = 1\n",
                     "jax/_src/numpy/indexing.py": gather.format(first) + like}, "move")
    git_repo.commit({"jax/_src/numpy/indexing.py": gather.format(last) + like}, "reword", tag="jax-v0.0.2")
    git_repo.commit({"jax/_src/numpy/indexing.py": like}, "drop", tag="jax-v0.0.3")
    engine = open_database(tmp_path / "catalogue.db")
    with JaxRepository(git_repo.path) as repository:
        for tag in ("jax-v0.0.1", "jax-v0.0.2", "jax-v0.0.3"):
            crawl_snapshot(engine, repository.snapshot(tag))
        crawl_history(engine, repository)
    [best, *_] = open_index(engine).lookup(Query(first, "IndexError"))
    assert best.entry.template.skeleton.startswith("Slice entries") and best.removed_after is None
    assert best.matched.path == "jax/_src/numpy/lax_numpy.py" and best.worded_until == "jax-v0.0.1"
    [ended] = [e for e in open_index(engine).entries if e.until and e.path == "jax/_src/numpy/lax_numpy.py"]
    assert ended.live_id == best.entry.error_id
    # The site's index, made from its cards, leads the same way (its search page runs on it).
    from jax_errors.lookup.browser import catalogue_index
    from jax_errors.site_gen.catalogue import load_catalogue

    from_cards = {e.error_id: e.live_id for e in catalogue_index(load_catalogue(engine)).entries}
    assert from_cards == {e.error_id: e.live_id for e in open_index(engine).entries}


REMOVED_LINEAGE = ("pmap requires a leading axis to map over.", "pmap requires a leading axis to map over, got {xs}.")


def removed_lineage_catalogue(git_repo, db):
    """A check worded REMOVED_LINEAGE[0] in jax-v0.0.1, reworded as REMOVED_LINEAGE[1] in jax-v0.0.2, removed in
    jax-v0.0.3: the engine of its catalogue at `db`."""
    check = '''
        def _pmap_axis_size(xs):
            raise ValueError(f"{}")
    '''
    first, last = REMOVED_LINEAGE
    git_repo.commit({"jax/_src/api.py": check.format(first)}, "v1", tag="jax-v0.0.1")
    git_repo.commit({"jax/_src/api.py": check.format(last)}, "reword", tag="jax-v0.0.2")
    git_repo.commit({"jax/_src/api.py": "X = 1\n"}, "drop", tag="jax-v0.0.3")
    return crawled_releases(git_repo, db, 3)


def test_the_wordings_of_a_removed_lineage_make_one_result(git_repo, tmp_path):
    """A check reworded once and then removed: its first wording fits the message, and its last, a card of its own,
    fits it nearly as well. One check gives one result, the best-fitting wording's card; the stored index, the
    site's index and its lookup.json fold alike."""
    first, _ = REMOVED_LINEAGE
    db = tmp_path / "catalogue.db"
    engine = removed_lineage_catalogue(git_repo, db)
    index = open_index(engine)
    [old] = [e for e in index.entries if e.until == "jax-v0.0.1"]
    [new] = [e for e in index.entries if e.until == "jax-v0.0.2"]
    assert old.live_id is None and new.live_id is None and old.ends_as == new.error_id
    # Alone, the last wording's card is a result for the first wording's message.
    from jax_errors.lookup.index import MATCH_FLOOR, LookupIndex

    [alone] = LookupIndex([new]).lookup(Query(first, "ValueError"))
    assert alone.entry.error_id == new.error_id and alone.how == "fuzzy" and alone.score > MATCH_FLOOR
    # Together, one result: the card of the wording the message fits whole. Its own message still finds the last.
    from jax_errors.lookup.browser import catalogue_index, lookup_record
    from jax_errors.site_gen.catalogue import load_catalogue

    catalogue = load_catalogue(engine)
    for made in (index, stored.stored_index(str(db)), catalogue_index(catalogue)):
        assert [(m.entry.error_id, m.how) for m in made.lookup(Query(first, "ValueError"))] == [
            (old.error_id, "template")]
        [best, *_] = made.lookup(Query("pmap requires a leading axis to map over, got (3,).", "ValueError"))
        assert best.entry.error_id == new.error_id and best.how == "template"
    assert lookup_record(catalogue)["lineage"] == {old.error_id: new.error_id}


def test_an_earlier_wording_of_a_removed_error_leads_where_that_error_now_leads():
    """A removed error that reads like a live one of its file leads to it (`with_resembling_successors`); the
    earlier wordings leading to the removed one follow it there."""
    from jax_errors.lookup.index import Entry, with_resembling_successors
    from jax_errors.template import Part, Template

    def entry(error_id, words, live_id, until):
        return Entry(error_id, "ValueError", Template((Part("lit", words),)), "jax/_src/x.py", 1, "jax-v0.0.2",
                     live_id=live_id, until=until)

    live = entry("a" * 16, "the axis sizes of the arguments must match", "a" * 16, None)
    removed = entry("b" * 16, "the axis sizes of the arguments must agree", None, "jax-v0.0.1")
    earlier = entry("c" * 16, "axis sizes of arguments do not agree", "b" * 16, "jax-v0.0.0")
    led = {e.error_id: e.live_id for e in with_resembling_successors([live, removed, earlier])}
    assert led == {"a" * 16: "a" * 16, "b" * 16: "a" * 16, "c" * 16: "a" * 16}


def test_a_removed_error_of_a_jax_class_leads_to_one_of_its_class_that_opens_alike_in_another_file():
    """`raise_concretization_error` in `jax/core.py` worded ConcretizationTypeError's message until jax 0.2.9; no
    lineage reaches the class's raises in `jax/_src/core.py`, whose message opens with the same words. A builtin
    class names no one kind of error, and fewer than OPENING_MIN_WORDS shared words are no opening."""
    import dataclasses

    from jax_errors.lookup.index import OPENING_MIN_WORDS, Entry, with_resembling_successors
    from jax_errors.template import Part, Template

    def entry(error_id, exc_class, parts, path, live):
        return Entry(error_id, exc_class, Template(tuple(Part(kind, text) for kind, text in parts)), path, 1,
                     "jax-v0.2.9", live_id=error_id if live else None, until=None if live else "jax-v0.2.9")

    opening = "Abstract tracer value encountered where concrete value is expected"
    today = entry("a" * 16, "jax._src.errors.ConcretizationTypeError",
                  [("lit", opening + ": "), ("expr", "tracer"), ("lit", "\n"), ("expr", "context")],
                  "jax/_src/core.py", True)
    removed = entry("b" * 16, "jax.core.ConcretizationTypeError",
                    [("lit", opening + ".\n\n"), ("expr", "context"), ("lit", "\n\nSee https://jax.readthedocs.io")],
                    "jax/core.py", False)
    builtin = entry("c" * 16, "TypeError", [("lit", opening + ".\n\n"), ("expr", "context")], "jax/core.py", False)
    few = " ".join(opening.split()[:OPENING_MIN_WORDS - 1])
    short = entry("d" * 16, "jax.core.ConcretizationTypeError", [("lit", few + " "), ("expr", "where")],
                  "jax/core.py", False)
    other = entry("e" * 16, "jax.core.TracerArrayConversionError", [("lit", opening + "!")], "jax/core.py", False)
    led = {e.error_id: e.live_id for e in with_resembling_successors([today, removed, builtin, short, other])}
    assert led == {"a" * 16: "a" * 16, "b" * 16: "a" * 16, "c" * 16: None, "d" * 16: None, "e" * 16: None}
    # A wording whose lineage ended as the removed one follows it there, whichever comes first.
    ended = dataclasses.replace(entry("f" * 16, "jax.core.ConcretizationTypeError", [("lit", "Concrete value needed: "),
                                                                                      ("expr", "x")], "jax/api.py",
                                      False), ends_as="b" * 16)
    for order in ([ended, removed, today], [today, removed, ended]):
        assert {e.error_id: e.live_id for e in with_resembling_successors(order)}["f" * 16] == "a" * 16


REMOVED_NAMES = '''
        from jax._src.deprecations import deprecation_getattr as _deprecation_getattr

        _deprecations = {{
{}
        }}
        __getattr__ = _deprecation_getattr(__name__, _deprecations)
    '''
TREE_LEAVES = ("jax.tree_leaves was removed in JAX v0.6.0: use jax.tree.leaves (jax v0.4.25 or newer) or "
               "jax.tree_util.tree_leaves (any JAX version).")
TREE_MAP = ("jax.tree_map was removed in JAX v0.6.0: use jax.tree.map (jax v0.4.25 or newer) or "
            "jax.tree_util.tree_map (any JAX version).")
TREE_MAP_NOW = "jax.tree_map was removed in JAX v0.6.0; use jax.tree.map instead."


# deprecations.py's own raise, of a name no table holds.
GETATTR = '''
        def deprecation_getattr(module, deprecations):
            def getattr(name):
                if name in deprecations:
                    message, fn = deprecations[name]
                    if fn is None:
                        raise AttributeError(message)
                    return fn
                raise AttributeError(f"module {module!r} has no attribute {name!r}")
            return getattr
    '''


def removed_names_catalogue(git_repo, db):
    """`jax/__init__.py`'s deprecation table over three releases: in jax-v0.0.1 `tree_leaves` raises TREE_LEAVES and
    `tree_map` only warns; in jax-v0.0.2 `tree_leaves` is gone from the table and `tree_map` raises TREE_MAP; in
    jax-v0.0.3 it raises TREE_MAP_NOW. The engine of its catalogue at `db`."""
    def table(*entries):
        return REMOVED_NAMES.format("\n".join(f"            {name!r}: ({words!r}, {made}),"
                                              for name, words, made in entries))
    git_repo.commit({"jax/__init__.py": table(("tree_leaves", TREE_LEAVES, None),
                                              ("tree_map", "jax.tree_map is deprecated", "len")),
                     "jax/_src/deprecations.py": GETATTR}, "v1", tag="jax-v0.0.1")
    git_repo.commit({"jax/__init__.py": table(("tree_map", TREE_MAP, None))}, "v2", tag="jax-v0.0.2")
    git_repo.commit({"jax/__init__.py": table(("tree_map", TREE_MAP_NOW, None))}, "v3", tag="jax-v0.0.3")
    return crawled_releases(git_repo, db, 3)


def test_a_name_a_module_removed_is_a_check_of_its_own_across_releases(git_repo, tmp_path):
    """The entries of a deprecation table that raise are cards (`crawler.deprecation_tables`). One name dropped from
    the table while another, worded alike, is added is two checks: each message leads to its own name's card. A
    name's entry reworded is one check."""
    engine = removed_names_catalogue(git_repo, tmp_path / "catalogue.db")
    index = open_index(engine)
    by_words = {e.template.text: e for e in index.entries}
    leaves, then, now = by_words[TREE_LEAVES], by_words[TREE_MAP], by_words[TREE_MAP_NOW]
    assert (leaves.attribute, now.attribute) == ("jax.tree_leaves", "jax.tree_map")
    with Session(engine) as session:
        errors = catalogue_history(session).errors
    assert errors[leaves.error_id].reworded_to == [] and errors[leaves.error_id].moved_to == []
    assert errors[then.error_id].reworded_to == [now.error_id]
    # The name dropped leads to no other name's card, however alike their words.
    [best, *_] = index.lookup(parse_query(f"AttributeError: {TREE_LEAVES}"))
    assert (best.entry.error_id, best.entry.live_id, best.worded_until) == (leaves.error_id, None, None)
    assert best.entry.until == "jax-v0.0.1" and best.how == "template"
    # The name's first wording leads to its card of today.
    [best, *_] = index.lookup(Query(TREE_MAP, "AttributeError"))
    assert (best.entry.error_id, best.worded_until) == (now.error_id, "jax-v0.0.2")


def test_a_module_lacking_a_name_it_removed_shows_what_it_said_of_the_name_second(git_repo, tmp_path):
    """`module 'jax' has no attribute 'tree_leaves'`, once the table dropped the name: first the raise of that message,
    then the card of the name's entry, at the same score (what jax said to use instead). Not for a name no table
    held, nor twice when the name's card is a result already."""
    from jax_errors.lookup.index import REMOVED_NAME

    engine = removed_names_catalogue(git_repo, tmp_path / "catalogue.db")
    index = open_index(engine)
    [leaves] = [e for e in index.entries if e.attribute == "jax.tree_leaves"]
    first, second, *rest = index.lookup(parse_query("AttributeError: module 'jax' has no attribute 'tree_leaves'"))
    assert first.entry.path == "jax/_src/deprecations.py" and first.how == "template"
    assert (second.entry.error_id, second.how, second.score) == (leaves.error_id, REMOVED_NAME, first.score)
    assert all(m.how != REMOVED_NAME for m in rest)
    # The interpreter's wording of 3.12, with its suggestion, says the same name.
    [_, again, *_] = index.lookup(parse_query("AttributeError: module 'jax' has no attribute 'tree_leaves'. "
                                              "Did you mean: 'tree_map'?"))
    assert again.entry.error_id == leaves.error_id
    for text in ("module 'jax' has no attribute 'tree_fold'", "module 'jax.numpy' has no attribute 'tree_leaves'"):
        assert [m.how for m in index.lookup(parse_query(text))] == ["template"]
    # The name's own message finds its card first, and no second copy of it.
    assert [m.entry.error_id for m in index.lookup(parse_query(TREE_LEAVES))].count(leaves.error_id) == 1


def test_the_card_of_a_removed_name_is_not_added_again_when_a_result_is_it(git_repo, tmp_path):
    """`LookupIndex._removed_name` adds the card only where no result is it already: the card itself, or the site of a
    group of one message, or a card of its lineage."""
    from jax_errors.lookup.index import REMOVED_NAME, Match

    index = open_index(removed_names_catalogue(git_repo, tmp_path / "catalogue.db"))
    [leaves] = [e for e in index.entries if e.attribute == "jax.tree_leaves"]
    [generic] = [e for e in index.entries
                 if e.path == "jax/_src/deprecations.py" and "has no attribute" in e.template.text]
    query = parse_query("module 'jax' has no attribute 'tree_leaves'")
    assert index._removed_name(query, [Match(generic, 0.9, "template")]) == Match(leaves, 0.9, REMOVED_NAME)
    assert index._removed_name(query, [Match(generic, 0.9, "template"), Match(leaves, 0.7, "fuzzy")]) is None
    assert index._removed_name(query, [Match(generic, 0.9, "template", None, (generic, leaves))]) is None
    assert index._removed_name(query, []) is None


# jax 0.1's op-by-op builder caught XLA's own error and raised it again with a hint after its words (`xla.py`).
WRAPPER = '''
        def primitive_computation(c):
            try:
                return c.Build()
            except RuntimeError as e:
                msg = (" ".join(map(str, e.args)) + "\\n"
                       "This is a bug in JAX's shape-checking rules; please report it!\\n"
                       "https://github.com/google/jax/issues\\n")
                raise RuntimeError(msg)
    '''
GATHER_CHECK = '''
        def _gather_shape_rule(start_index_map, indices):
            if len(start_index_map) != indices.shape[-1]:
                raise TypeError(f"Gather op has {len(start_index_map)} elements in start_index_map and the bound "
                                f"of dimension index_vector_dim=-1 of indices is {indices.shape[-1]}. These two "
                                "numbers must be equal.")
    '''
GATHER_WRAPPED = ("RuntimeError: Invalid argument: Gather op has 3 elements in start_index_map and the bound of "
                  "dimension index_vector_dim=-1 of indices is 2. These two numbers must be equal.: \n"
                  "This is a bug in JAX's shape-checking rules; please report it!\n"
                  "https://github.com/google/jax/issues")


def wrapper_catalogue(git_repo, db, *, wrapper_kept=False):
    """jax-v0.0.1 raises XLA's words again with WRAPPER's hint; jax-v0.0.2 checks gathers itself (GATHER_CHECK) and has
    no such raise, unless `wrapper_kept`. The engine of its catalogue at `db`."""
    git_repo.commit({"jax/interpreters/xla.py": WRAPPER}, "v1", tag="jax-v0.0.1")
    git_repo.commit({"jax/interpreters/xla.py": WRAPPER if wrapper_kept else "X = 1\n",
                     "jax/_src/lax/slicing.py": GATHER_CHECK}, "v2", tag="jax-v0.0.2")
    return crawled_releases(git_repo, db, 2)


def test_a_message_a_removed_raise_added_words_to_leads_to_the_card_of_the_message_it_held(git_repo, tmp_path):
    """XLA's gather error with jax 0.1's hint after it: the hint's raise is gone, and what the message held before the
    hint is what jax's own check raises today. Its card comes first, at the score of the held words' own fit (no
    class: the caught exception's is not the message's); that raise's card second, at its score."""
    from jax_errors.lookup.index import HELD

    index = open_index(wrapper_catalogue(git_repo, tmp_path / "catalogue.db"))
    [wrapper] = [e for e in index.entries if e.path == "jax/interpreters/xla.py"]
    [check] = [e for e in index.entries if e.path == "jax/_src/lax/slicing.py"]
    assert index.wrappers == {wrapper.error_id: "This is a bug in JAX's shape-checking rules; please report it!"}
    first, second, *rest = index.lookup(parse_query(GATHER_WRAPPED))
    [alone] = index.lookup(Query(" ".join(GATHER_WRAPPED.partition(": ")[2].split("This is a bug")[0].split())),
                           limit=1)
    assert (first.entry.error_id, first.how, first.score) == (check.error_id, HELD, alone.score)
    assert (second.entry.error_id, second.how) == (wrapper.error_id, "template") and second.score > first.score
    assert all(m.entry.error_id != check.error_id for m in rest)
    # Pasted without its last line, it is cut short: the same.
    [first, *_] = index.lookup(parse_query(GATHER_WRAPPED.rpartition("\n")[0]))
    assert (first.entry.error_id, first.how) == (check.error_id, HELD)
    # Held words that read much like the check's (XLA's own, 0.83) lead there; words no card fits, or that read only
    # a little like a card's (0.64: low confidence), leave the removed raise first.
    alike = GATHER_WRAPPED.replace(" and the bound", " but the bound")
    assert [(m.entry.error_id, m.how) for m in index.lookup(parse_query(alike))][:1] == [(check.error_id, HELD)]
    unlike = "Gather op failed: the index map has 3 elements and the bound of dimension index_vector_dim=-1 differs."
    for message in (GATHER_WRAPPED.replace("Gather op has", "Scatter op had"),
                    f"RuntimeError: {unlike}\n" + GATHER_WRAPPED.partition("\n")[2]):
        [first, *_] = index.lookup(parse_query(message))
        assert first.entry.error_id == wrapper.error_id
    [weak] = index.lookup(Query(unlike), limit=1)
    assert weak.entry.error_id == check.error_id and weak.confidence == "low"


def test_a_message_a_live_raise_added_words_to_is_that_raise_s(git_repo, tmp_path):
    """While the raise adding the hint stands, it raises the message: its card is first, and no other leads."""
    from jax_errors.lookup.index import HELD

    index = open_index(wrapper_catalogue(git_repo, tmp_path / "catalogue.db", wrapper_kept=True))
    [first, *rest] = index.lookup(parse_query(GATHER_WRAPPED))
    assert first.entry.path == "jax/interpreters/xla.py" and first.entry.live_id == first.entry.error_id
    assert all(m.how != HELD for m in rest)


def test_the_card_of_a_name_its_module_no_longer_holds_says_what_reading_it_raises_now(git_repo, tmp_path):
    """`tree_leaves` left the table after jax-v0.0.1: its card says that reading it raises Python's `module 'jax' has
    no attribute 'tree_leaves'` since, the message lookup leads to that card. A name still in the table says no such
    thing."""
    from jax_errors.site_gen.build import render_card
    from jax_errors.site_gen.catalogue import load_catalogue

    catalogue = load_catalogue(removed_names_catalogue(git_repo, tmp_path / "catalogue.db"))
    by_words = {card.template.text: card for card in catalogue.cards.values()}
    gone = render_card(by_words[TREE_LEAVES], catalogue)
    said = gone[gone.index('class="retired"'):gone.index("</p>", gone.index('class="retired"'))]
    assert "No longer raised since jax-v0.0.2" in said
    assert ("reading <code>jax.tree_leaves</code> raises Python's own\n      <code>AttributeError: module "
            "&#39;jax&#39; has no attribute &#39;tree_leaves&#39;</code>") in said
    assert "Python's own" not in render_card(by_words[TREE_MAP_NOW], catalogue)
