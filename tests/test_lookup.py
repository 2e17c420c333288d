"""Lookup of real messages against the catalogue of the installed jax."""

import json

import jax
import pytest
from click.testing import CliRunner
from sqlalchemy.orm import Session
from versions import GRAD_MESSAGES, SEED_ID, seed_line

from jax_errors.cli import cli
from jax_errors.db.engine import copy_database
from jax_errors.lookup.build import index_from_session
from jax_errors.lookup.index import Query, parse_query

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
        return index_from_session(session)


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
    [best, *_] = index.lookup("TypeError: " + GRAD_MESSAGES[jax.__version__])
    assert best.how == "template"
    assert best.entry.path == "jax/_src/api.py"


def test_cli_reads_a_traceback_on_stdin(installed_db_path):
    result = CliRunner().invoke(cli, ["lookup", "--json", "--db", str(installed_db_path)], input=TRACEBACK)
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    [best, *_] = answer["matches"]
    assert best["error_id"] == SEED_ID and best["line"] == seed_line()
    assert answer["verdict"] is None and best["confidence"] == "high" and best["sites"] == []


def test_cli_without_message_or_stdin_is_a_usage_error(installed_db_path):
    result = CliRunner().invoke(cli, ["lookup", "--db", str(installed_db_path)], input="")
    assert result.exit_code == 2


def test_class_built_messages_find_the_raise(index):
    matches = index.lookup("ConcretizationTypeError: Abstract tracer value encountered where concrete value "
                           "is expected: traced array with shape float32[]\nThe problem arose with the `float` function.")
    assert matches and matches[0].how == "template"
    assert matches[0].entry.exc_class == "jax._src.errors.ConcretizationTypeError"


def evaluate(index, data):
    """Top-1 and top-3 hits on the messages with a raise site, and results on those without one.

    A result names a site when it is that site's card, or one of the sites raising its message.
    """
    from jax_errors.lookup.index import Query

    top1 = top3 = false = 0
    for case in data:
        matches = index.lookup(Query(case["message"], case["exception"].rpartition(".")[2]), limit=3)
        sites = [{m.entry.error_id, *(s.error_id for s in m.sites)} for m in matches]
        if case["expected"] is None:
            # A message raised inside XLA has no card; a removed one may lead to its own retired card, not a live one.
            false += bool(matches) and (case["raised_in"] == "xla" or matches[0].entry.live_id is not None)
            continue
        top1 += bool(sites) and case["expected"]["error_id"] in sites[0]
        top3 += any(case["expected"]["error_id"] in group for group in sites)
    return top1, top3, false


def headlines(index, data):
    """How many messages with a raise site get that site's card as the first result's own: not one of the other sites
    raising its message, which `evaluate` counts too."""
    from jax_errors.lookup.index import Query

    found = 0
    for case in data:
        if case["expected"] is not None:
            matches = index.lookup(Query(case["message"], case["exception"].rpartition(".")[2]), limit=1)
            found += bool(matches) and matches[0].entry.error_id == case["expected"]["error_id"]
    return found


# The release whose raise sites label the evaluation set: the newest on the package index when it was labelled.
LABELLED_AT = "0.12.1"


def issue_messages():
    from pathlib import Path

    data = json.loads((Path(__file__).parent / "data" / "issue_messages.json").read_text())
    assert len(data) == 224 and sum(d["raised_in"] == "python" for d in data) == 151
    assert {d["raised_in"] for d in data if d["expected"] is None} == {"xla", "removed"}
    return data


def first_lines(data):
    """The evaluation messages of several lines, each cut to its first: what a user pasting only that line asks."""
    from jax_errors.lookup.index import first_line_of

    return [{**d, "message": first_line_of(d["message"])} for d in data if len(d["message"].strip().splitlines()) > 1]


def test_accuracy_on_real_messages_from_jax_issues(index):
    """The figures README "Lookup" claims for the installed jax's catalogue alone (labels are at LABELLED_AT): on
    every message, and on the first line of the 49 of several lines (37 with a site)."""
    if jax.__version__ != LABELLED_AT:
        pytest.skip(f"the evaluation set is labelled at jax {LABELLED_AT}, not {jax.__version__}")
    assert evaluate(index, issue_messages()) == (108, 111, 2)
    lines = first_lines(issue_messages())
    assert (len(lines), sum(1 for d in lines if d["expected"])) == (49, 37)
    assert evaluate(index, lines) == (26, 27, 1)
    assert (headlines(index, issue_messages()), headlines(index, lines)) == (94, 20)


VMAP_MESSAGE = ("vmap got inconsistent sizes for array axes to be mapped:\n"
                "  * one axis had size 3: axis 0 of argument x of type float32[3];\n"
                "  * one axis had size 4: axis 0 of argument y of type float32[4]")
REMOVED_MESSAGE = "jax.experimental.maps was removed in JAX v0.4.31; use jax.sharding.Mesh instead"


def test_a_message_built_in_a_list_matches_its_template(index):
    """`_mapped_axis_size` appends one line per size to a list, in a loop, and joins it."""
    [best, *_] = index.lookup(Query(VMAP_MESSAGE, "ValueError"))
    assert (best.entry.path, best.how) == ("jax/_src/api.py", "template")
    assert best.entry.template.text.startswith("{name} got inconsistent sizes for array axes to be mapped:")


def test_an_opaque_template_is_found_by_a_message_it_was_seen_raising(installed_db_path, tmp_path):
    """A deprecated module attribute raises the message its registration words: only a message seen raising tells it apart."""
    from datetime import datetime, timezone

    from jax_errors.db.engine import open_database
    from jax_errors.db.models import ConfirmedTrigger, TriggerRun
    from jax_errors.lookup.index import EXAMPLES_PER_ERROR, RAISED_BONUS, Query, skeleton_key

    path = tmp_path / "catalogue.db"
    copy_database(installed_db_path, path)
    engine = open_database(path)
    query = Query("jax.experimental.maps was removed in JAX v0.4.31; use jax.sharding.Mesh.", "AttributeError")
    with Session(engine) as session:
        before = index_from_session(session)
        [opaque] = [e for e in before.entries if e.template.text == "{message}" and e.path == "jax/_src/deprecations.py"
                    and e.exc_class == "AttributeError"]
        assert opaque.error_id not in [m.entry.error_id for m in before.lookup(query)]
        run = TriggerRun(commit="0" * 40, path="tests/api_test.py", jax_version="0.10.2", status="ran", exit_code=0,
                         selected=1, passed=1, failed=0, skipped=0, seconds=1.0, ran_at=datetime.now(timezone.utc))
        session.add(run)
        for i in range(EXAMPLES_PER_ERROR + 2):  # the same message twice, and more than are kept
            run.triggers.append(ConfirmedTrigger(
                node_id=f"tests/deprecation_test.py::DeprecationTest::testRemoved{i}", test_line=10,
                status="confirmed", matched=True, exc_class="AttributeError", message=REMOVED_MESSAGE + "." * (i // 2),
                error_id=opaque.error_id))
        session.commit()
        after = index_from_session(session)
    [seen] = [e for e in after.entries if e.error_id == opaque.error_id]
    assert len(seen.examples) == EXAMPLES_PER_ERROR and skeleton_key(seen.template) not in seen.examples
    assert opaque.error_id in after.raised
    [best, *_] = after.lookup(query)
    assert (best.entry.error_id, best.how) == (opaque.error_id, "fuzzy")
    assert 0.85 * 0.9 + RAISED_BONUS < best.score < 0.9  # close to the example, below any template match


def test_the_sites_index_made_from_cards_equals_the_one_read_from_the_database(site_db_path, git_repo, two_errors,
                                                                              tmp_path):
    """A build reads the database once: its lookup index comes from the loaded catalogue, and must be the CLI's."""

    import jax

    from jax_errors.crawler.crawl import crawl_snapshot
    from jax_errors.crawler.repository import JaxRepository
    from jax_errors.db.engine import open_database
    from jax_errors.lookup.browser import catalogue_index
    from jax_errors.site_gen.catalogue import load_catalogue

    path = tmp_path / "catalogue.db"
    copy_database(site_db_path, path)
    engine = open_database(path)
    git_repo.commit(two_errors, "an older jax whose errors are gone since", tag="jax-v0.0.1")
    with JaxRepository(git_repo.path) as repo:
        crawl_snapshot(engine, repo.snapshot("jax-v0.0.1"))
    with Session(engine) as session:
        expected = index_from_session(session)
    index = catalogue_index(load_catalogue(engine))
    assert index.entries == expected.entries and index.raised == expected.raised
    assert {entry.snapshot for entry in index.entries} == {"jax-v0.0.1", f"jax-v{jax.__version__}"}
    assert SEED_ID in index.raised and any(entry.examples for entry in index.entries)
    worded_by_class = [e for e in index.entries if e.exc_class == "jax._src.errors.TracerBoolConversionError"]
    assert worded_by_class and all("Attempted boolean conversion" in e.template.text for e in worded_by_class)


def test_a_message_too_long_to_be_one_is_one_clear_error(installed_db_path):
    result = CliRunner().invoke(cli, ["lookup", "--db", str(installed_db_path)], input="x" * 1_000_000)
    assert result.exit_code == 1
    assert result.output == "Error: the message is 1,000,000 characters long; lookup reads at most 100,000\n"


def test_an_index_made_from_its_prepared_parts_answers_as_the_index_does(index):
    """`explain` reads lookup's derived keys from a file instead of deriving them: same answers on every message."""
    from jax_errors.lookup.index import Entry, LookupIndex

    rows = [entry.row() for entry in index.entries]
    made = LookupIndex.from_prepared(rows, Entry.from_row, [r[0] for r in rows], index.raised, index.prepared())
    for case in issue_messages():
        query = Query(case["message"], case["exception"].rpartition(".")[2])
        assert [(m.entry.error_id, m.score, [s.error_id for s in m.sites]) for m in made.lookup(query)] == \
               [(m.entry.error_id, m.score, [s.error_id for s in m.sites]) for m in index.lookup(query)]


def test_pythons_whitespace_class_is_made_once_and_kept_and_a_spoilt_copy_is_made_again(tmp_path, monkeypatch):
    from jax_errors.lookup import browser

    monkeypatch.setenv("JAX_ERRORS_CACHE", str(tmp_path))
    browser.python_space.cache_clear()
    made = browser.python_space()
    assert made == browser._python_space() and "\\u{3000}" in made and "\\u{20}" in made
    (kept,) = (tmp_path / "lookup").iterdir()
    browser.python_space.cache_clear()
    monkeypatch.setattr(browser, "_python_space", lambda: pytest.fail("made again, not read from the cache"))
    assert browser.python_space() == made
    kept.write_text("not a class", encoding="ascii")
    browser.python_space.cache_clear()
    monkeypatch.setattr(browser, "_python_space", lambda: "[\\u{20}]")
    assert browser.python_space() == "[\\u{20}]" == kept.read_text(encoding="ascii")
    browser.python_space.cache_clear()


def test_lookup_json_is_the_same_whether_its_regexes_are_translated_or_kept(fresh_db, git_repo, two_errors, tmp_path,
                                                                            monkeypatch):
    from jax_errors.crawler.crawl import crawl_snapshot
    from jax_errors.crawler.repository import JaxRepository
    from jax_errors.lookup import browser
    from jax_errors.site_gen.catalogue import load_catalogue

    monkeypatch.setenv("JAX_ERRORS_CACHE", str(tmp_path))
    with JaxRepository(git_repo.path) as repository:
        crawl_snapshot(fresh_db, repository.snapshot(git_repo.commit(two_errors, "one")))
    catalogue = load_catalogue(fresh_db)
    translated = []
    real = browser.js_regex
    monkeypatch.setattr(browser, "js_regex",
                        lambda pattern, *a, **kw: translated.append(pattern) or real(pattern, *a, **kw))
    made = browser.lookup_record(catalogue)
    syntax = 11  # the patterns of the syntax lookup.js reads
    templates = len(translated) - syntax
    assert templates == 2
    (kept,) = (tmp_path / "lookup").glob("regexes-*.json")
    translated.clear()
    assert browser.lookup_record(catalogue) == made and len(translated) == syntax
    kept.write_text("{not json", encoding="utf-8")
    assert browser.lookup_record(catalogue) == made and len(translated) == 2 * syntax + templates  # all again
    (tmp_path / "lookup" / "regexes-0123456789abcdef.json").write_text("{}", encoding="utf-8")
    kept.write_text("{}", encoding="utf-8")
    assert browser.lookup_record(catalogue) == made
    assert [p.name for p in (tmp_path / "lookup").glob("regexes-*.json")] == [kept.name]  # another code's file goes
    another_catalogue = {'[["lit","x must be positive"]]': "^(?:x must be positive)$"}
    kept.write_text(json.dumps(another_catalogue), encoding="utf-8")
    assert browser.lookup_record(catalogue) == made
    assert len(json.loads(kept.read_text(encoding="utf-8"))) == 3  # kept beside this catalogue's two


def test_lookup_json_writes_entries_as_columns_that_read_back_as_the_index(fresh_db, git_repo, two_errors):
    """Each column holds one value per entry, in the index's order; a coded column's indexes read back its values."""
    from jax_errors.crawler.crawl import crawl_snapshot
    from jax_errors.crawler.repository import JaxRepository
    from jax_errors.lookup import browser
    from jax_errors.site_gen.catalogue import load_catalogue
    from jax_errors.site_gen.records import SCHEMA_DIR

    with JaxRepository(git_repo.path) as repository:
        crawl_snapshot(fresh_db, repository.snapshot(git_repo.commit(two_errors, "one")))
    catalogue = load_catalogue(fresh_db)
    index = browser.catalogue_index(catalogue)
    record = browser.lookup_record(catalogue, index)
    columns, values = record["entries"], record["values"]
    schema = json.loads((SCHEMA_DIR / browser.LOOKUP_SCHEMA).read_text(encoding="utf-8"))
    assert set(columns) == set(schema["properties"]["entries"]["required"])  # every column the schema names
    assert record["count"] == len(index.entries) == 2
    assert all(len(column) == record["count"] for column in columns.values())
    for i, entry in enumerate(index.entries):
        assert columns["id"][i] == entry.error_id
        assert values["path"][columns["path"][i]] == entry.path and values["class"][columns["class"][i]] == entry.exc_class
        assert columns["until"][i] is None and columns["live_id"][i] == entry.error_id
        assert columns["anchors"][i] == " ".join(sorted(entry.anchor_words))
    assert record["card_href"].replace("{id}", columns["id"][0]) == f"errors/{columns['id'][0]}.html"
    assert record["wording_of"] == {}


def leaked_tracer_message() -> str:
    """What the installed jax says when a tracer a jitted function stored is used after it: a dozen lines."""
    leaked = []
    jax.jit(lambda x: leaked.append(x) or x)(1.0)
    with pytest.raises(jax.errors.UnexpectedTracerError) as raised:
        jax.jit(lambda y: y + leaked[0])(1.0)
    return str(raised.value)


def test_a_long_messages_first_line_finds_its_card(index):
    """A leaked tracer's message runs on for lines; pasted by its first line alone, it finds the card all the same,
    scored as the first line's template times FIRST_LINE_CEILING."""
    from jax_errors.lookup.index import FIRST_LINE_CEILING, RAISED_BONUS, first_line_of, template_score

    message = leaked_tracer_message()
    line = first_line_of(message)
    assert line.startswith("Encountered an unexpected tracer.") and len(message.splitlines()) > 5
    [first, *_] = index.lookup(Query(line, "UnexpectedTracerError"))
    [whole, *_] = index.lookup(Query(message, "UnexpectedTracerError"))
    assert first.how == "first-line" and first.entry.error_id == whole.entry.error_id
    assert first.entry.template.text.startswith("Encountered an unexpected tracer.")
    bonus = RAISED_BONUS if first.entry.error_id in index.raised else 0.0
    assert first.score == round(FIRST_LINE_CEILING * template_score(first.entry.head, line) + bonus, 4)
    # behind a status code, as the template pass reads it too
    [coded, *_] = index.lookup(Query("INTERNAL: " + line, "UnexpectedTracerError"))
    assert (coded.entry.error_id, coded.how) == (first.entry.error_id, "first-line")


def test_a_message_quoted_up_to_a_sentence_s_end_fits_the_template_s_first_sentence(index):
    """#40907 quotes a context-mesh error up to `for shape bool[]`, where jax goes on `. This error occurs at
    source: ...`: the message fits the template's first sentence (`Entry.head`), as its own wording."""
    if jax.__version__ != LABELLED_AT:
        pytest.skip(f"the evaluation set is labelled at jax {LABELLED_AT}, not {jax.__version__}")
    from jax_errors.lookup.index import FIRST_LINE_CEILING, template_score
    from jax_errors.template import folded

    [case] = [d for d in issue_messages() if d["url"].endswith("/issues/40907")]
    [first, *_] = index.lookup(Query(case["message"], case["exception"]))
    assert (first.entry.error_id, first.how) == (case["expected"]["error_id"], "first-sentence")
    assert first.entry.template.text.startswith("For primitive {prim_name}, context mesh")
    assert first.entry.head.template.skeleton.endswith("for shape {}.")
    assert first.score == round(FIRST_LINE_CEILING * template_score(first.entry.head, case["message"]), 4)
    assert not first.entry.regex.fullmatch(folded(case["message"]))  # the whole template wants the rest


def test_a_message_cut_short_fits_the_beginning_of_its_template():
    """#22291's title cuts jax's debug-nans message at `the de-optimized funct`: it fits the beginning of the
    template, ending within one of its words, and scores as the whole template would over the literal text it
    holds, above the shorter error whose message the template wraps (its last placeholder takes the rest). Cut in
    a placeholder's value, a message scores as a template's first line would. An ellipsis ending it is no part of
    it; a message holding fewer than CUT_MIN_WORDS words of the template, or words it does not hold, fits none."""
    from jax_errors.lookup.index import CUT_MIN_WORDS, FIRST_LINE_CEILING, Entry, LookupIndex, literal_score
    from jax_errors.template import Part, Template

    def entry(error_id, *parts, exc_class="FloatingPointError"):
        return Entry(error_id, exc_class, Template(tuple(parts)), "jax/_src/api_util.py", 1, "jax-v0.12.1",
                     live_id=error_id)

    wrapper = entry("deoptimized", Part("expr", "str(e)"), Part(
        "lit", ". Because jax_config.debug_nans.value and/or config.jax_debug_infs is set, the de-optimized "
               "function (i.e., the function as if the `jit` decorator were removed) was called."))
    inner = entry("invalid", Part("lit", "invalid value ("), Part("expr", "e.ty"), Part("lit", ") encountered in "),
                  Part("expr", "fun.__qualname__"))
    sharding = entry("sharding", Part("lit", "One of "), Part("expr", "what"), Part("lit", " was given the sharding "),
                     Part("expr", "str(e)"), Part("lit", " while lowering at "), Part("expr", "where"),
                     exc_class="IndivisibleError")
    assert wrapper.cut_words == {"Because", "jax_config.debug_nans.value", "and/or"}
    assert sharding.cut_words == {"One", "of", "was"} and CUT_MIN_WORDS == 4
    index = LookupIndex([wrapper, inner, sharding])

    title = ("invalid value (nan) encountered in jit(convert_element_type). Because jax_config.debug_nans.value "
             "and/or config.jax_debug_infs is set, the de-optimized funct")
    held = ". Because jax_config.debug_nans.value and/or config.jax_debug_infs is set, the de-optimized funct"
    first, second = index.lookup(Query(title, "FloatingPointError"))
    assert (first.entry.error_id, first.how) == ("deoptimized", "cut")
    assert first.score == round(literal_score(len(held.replace(" ", "")), title), 4) > second.score
    assert (second.entry.error_id, second.how) == ("invalid", "template")
    [ellipsis, _] = index.lookup(Query(title + "…", "FloatingPointError"))
    assert (ellipsis.entry.error_id, ellipsis.how, ellipsis.score) == ("deoptimized", "cut", first.score)

    message = ("One of pjit outputs with pytree key path result was given the sharding NamedSharding(mesh=Mesh('x': "
               "4), spec=PartitionSpec('x',)), which implies that the global s")
    [cut] = index.lookup(Query(message + " ...", "IndivisibleError"))
    assert (cut.entry.error_id, cut.how) == ("sharding", "cut")
    assert cut.score == round(FIRST_LINE_CEILING * literal_score(len("Oneofwasgiventhesharding"), message), 4)
    assert index.lookup(Query("One of pjit outputs with pytree key path", "IndivisibleError")) == []
    assert index.lookup(Query(message.replace("was given", "was handed"), "IndivisibleError")) == []


def test_a_message_cut_short_fits_at_its_latest_point_and_only_past_the_fourth_words_first_letter():
    """Of the points where a message cut short may end, the latest that fits counts: `... six X seven ei` ends
    within `eight`, after the placeholder's value, not in it. A message fits only through the first letter of the
    template's CUT_MIN_WORDS-th word, and only when it begins with the template's leading text and ends with the
    words before its point."""
    from jax_errors.lookup.index import CUT_MIN_WORDS, Entry, LookupIndex, cut_fit, literal_score
    from jax_errors.template import Part, Template, folded

    entry = Entry("numbers", "ValueError", Template((
        Part("lit", "one two three four five six "), Part("expr", "x"), Part("lit", " seven eight nine ten"))),
        "jax/_src/numbers.py", 1, "jax-v0.12.1", live_id="numbers")
    index = LookupIndex([entry])
    message = "one two three four five six X seven ei"
    [found] = index.lookup(Query(message, "ValueError"))
    literal = len("onetwothreefourfivesixsevenei")
    assert (found.how, found.score) == ("cut", round(literal_score(literal, message), 4))  # within `eight`: unscaled
    assert cut_fit(entry, folded(message)) == (literal, True)
    # Ending in the placeholder's value: the point after it, scaled as a head.
    assert cut_fit(entry, "one two three four five six X seven and more") == (len("onetwothreefourfivesix"), False)
    assert CUT_MIN_WORDS == 4 and entry.cut_words == {"one", "two", "three"}
    assert cut_fit(entry, "one two three f") == (len("onetwothreef"), True)
    assert cut_fit(entry, "one two three") is None  # no letter of the 4th word
    assert [m.how for m in index.lookup(Query("one two three", "ValueError"))] != ["cut"]
    assert cut_fit(entry, "zero one two three four fi") is None  # it does not begin so
    assert cut_fit(entry, "one two three four fiv") == (len("onetwothreefourfiv"), True)
    assert cut_fit(entry, "one two three four fig") is None  # `fig` begins no word there


def test_a_jax_error_class_s_whole_message_fits_its_template_with_or_without_its_docs_line(index):
    """`_JAXErrorMixin` ends every message with a line naming the class's documentation: the card's template
    holds it, so the whole message fits the template; pasted without that line, the message fits it too."""
    message = leaked_tracer_message()
    body, docs = message.rsplit("\n", 1)
    assert docs == "See https://docs.jax.dev/en/latest/101/errors.html#jax.errors.UnexpectedTracerError"
    [whole, *_] = index.lookup(Query(message, "UnexpectedTracerError"))
    [cut, *_] = index.lookup(Query(body, "UnexpectedTracerError"))
    assert (whole.how, cut.how) == ("template", "template") and whole.entry.error_id == cut.entry.error_id
    assert whole.entry.template.text.endswith("\n" + docs)
    # The docs line is not counted among the template's words: the whole message's coverage is a little lower.
    assert min(whole.score, cut.score) >= 0.95


def test_the_interpreter_s_own_messages_lead_to_no_merely_alike_card(index, installed_db_path):
    """`No module named '...'` (#22286), an operator's `TypeError` (#3822): Python words them in anyone's code. A
    raise of jax that reads alike (`No module named "cloudpickle"`) is no card for them; one they fit is."""
    from jax_errors.lookup.origin import NO_RAISE, looks_raised_by_python

    missing = "No module named 'jax.experimental.export.shape_poly'"
    # Raised as a class of jax's, the words are jax's to match, and a close wording is offered.
    assert [m.how for m in index.lookup(Query(missing, "JaxRuntimeError"))][:1] == ["fuzzy"]
    assert index.lookup(Query(missing, "ModuleNotFoundError")) == [] == index.lookup(Query(missing))
    assert index.lookup(Query("'>' not supported between instances of 'int' and 'NoneType'", "TypeError")) == []
    # jax's lazy modules word an unknown attribute as Python does: the template fits, and its card stands.
    [lazy, *_] = index.lookup(Query("module 'jax' has no attribute 'tree_multimap'", "AttributeError"))
    assert lazy.how == "template" and lazy.entry.template.text.startswith("module ")
    assert looks_raised_by_python(Query("f() missing 1 required positional argument: 'x'", "TypeError"))
    assert not looks_raised_by_python(Query("all_gather_reduced only accepts inputs that are varying. Got f32[1]"))
    result = CliRunner().invoke(cli, ["lookup", "--db", str(installed_db_path), "--json",
                                      f"ModuleNotFoundError: {missing}"])
    assert result.exit_code == 0 and json.loads(result.output)["verdict"] == NO_RAISE


def test_jaxlib_s_pytree_messages_are_raised_in_cpp_and_lead_to_no_merely_alike_card(index):
    """jaxlib's C++ pytree words what `flatten_up_to` finds (#16707, #10710, and #13849 of a fourth fresh sample): no
    Python raise of jax words them. `Tuple arity mismatch: 1 != 2; ...` read a little like mosaic's `M mismatch: {} !=
    {}` (0.62)."""
    from jax_errors.lookup.origin import NO_SITE, looks_raised_in_xla, no_card_verdict

    messages = ["Tuple arity mismatch: 1 != 2; tuple: (<object object at 0x7f99e0e769b0>,).",
                "Custom node type mismatch: expected type: <class '__main__.M'>, value: M(x=1).",
                "Mismatch custom node data: PyTreeDef({'a': *}) != PyTreeDef({'a': (*, *)}); value: P(a=1).",
                "Dict key mismatch; expected keys: ['a', 'b']; dict: {'a': 1}."]
    for message in messages:
        query = Query(message, "ValueError")
        assert looks_raised_in_xla(query) and index.lookup(query) == [] and no_card_verdict(query) == NO_SITE
    assert not looks_raised_in_xla(Query("M mismatch: 3 != 4", "ValueError"))


def test_numpy_s_own_messages_lead_to_no_merely_alike_card(index, installed_db_path):
    """NumPy words `cannot reshape array of size 12 into shape (3,)` (#746) in anyone's code, as the interpreter words
    its own: a check of jax that reads alike is no card for it. One NumPy's words fit, in jax's words, is."""
    from jax_errors.lookup.origin import NO_NUMPY_RAISE, looks_raised_by_numpy

    reshape = "cannot reshape array of size 12 into shape (3,)"
    assert [m.how for m in index.lookup(Query(reshape, "JaxRuntimeError"))][:1] == ["fuzzy"]  # alike words of jax's
    assert index.lookup(Query(reshape, "ValueError")) == [] == index.lookup(Query(reshape))
    # `np.dtype` of what names no type (#1363): jax's `dtype {dtype!r} not understood` reads alike (0.71), not it.
    assert index.lookup(Query("data type not understood", "TypeError")) == []
    assert index.lookup(Query("data type not understood")) == [] == index.lookup(Query("data type 'x' not understood"))
    # ... and of what is no type at all (equinox#245, a fourth fresh sample): jax's `Argument '{}' of type ... is not a
    # valid JAX type` reads a little alike.
    assert index.lookup(Query("Cannot interpret 'Zero(ShapedArray(complex64[10]))' as a data type", "TypeError")) == []
    # jax's own `Only integer scalar arrays ...` is a card; NumPy's, in small letters and with no full stop, is none.
    assert index.lookup(Query("only integer scalar arrays can be converted to a scalar index", "TypeError")) == []
    [own, *_] = index.lookup(Query("Only integer scalar arrays can be converted to a scalar index.", "TypeError"))
    assert own.how == "template" and own.entry.path == "jax/_src/core.py"
    # jax raises NumPy's words for a reduction of nothing: the template fits, and its card stands.
    [empty, *_] = index.lookup(Query("zero-size array to reduction operation maximum which has no identity",
                                     "ValueError"))
    assert empty.how == "template" and empty.score == 1.0
    # jax 0.1.43 went on after NumPy's words: that is jax's message, not NumPy's. NumPy's whole message is no
    # beginning of jax's; one marked cut short may be.
    numpys = "operands could not be broadcast together with shapes (3,) (4,) "
    jaxs = numpys + "and with the config option jax_numpy_rank_promotion='raise'."
    assert looks_raised_by_numpy(Query(numpys, "ValueError")) and not looks_raised_by_numpy(Query(jaxs, "ValueError"))
    from jax_errors.lookup.index import Entry, LookupIndex
    from jax_errors.template import Part, Template

    old = Entry("a" * 16, "ValueError", Template((
        Part("lit", "operands could not be broadcast together with shapes "), Part("expr", "shapes"),
        Part("lit", " and with the config option jax_numpy_rank_promotion='raise'."))), "jax/numpy/lax_numpy.py", 185,
        "jax-v0.1.43", until="jax-v0.1.43")
    rank_promotion = LookupIndex([old])
    assert [m.how for m in rank_promotion.lookup(Query(jaxs, "ValueError"))] == ["template"]
    assert rank_promotion.lookup(Query(numpys, "ValueError")) == []
    assert [m.how for m in rank_promotion.lookup(Query(numpys + "and with the…", "ValueError"))] == ["cut"]
    result = CliRunner().invoke(cli, ["lookup", "--db", str(installed_db_path), "--json",
                                      "IndexError: too many indices for array"])
    assert result.exit_code == 0 and json.loads(result.output)["verdict"] == NO_NUMPY_RAISE


def test_a_message_whose_later_lines_went_otherwise_is_found_by_its_first_line_fuzzily():
    """#5853 proposed an `__index__` message whose first line reads like the one jax raised, and whose later
    lines nothing raised: the whole message is too unlike the template to show it; its first line is not, and
    scores at most FIRST_LINE_CEILING times the fuzzy ceiling. The better of a card's two fuzzy scores stands."""
    from jax_errors.lookup.index import (
        FIRST_LINE_CEILING,
        FUZZY_CEILING,
        MATCH_FLOOR,
        Entry,
        LookupIndex,
        fuzzy_ratio,
        normalize,
    )
    from jax_errors.template import Part, Template

    def entry(error_id, *parts):
        return Entry(error_id, "TypeError", Template(tuple(parts)), "jax/core.py", 1, "jax-v0.2.10",
                     live_id=error_id)

    index_error = entry("index", Part("lit", "The __index__() method was called on the JAX Tracer object "),
                        Part("expr", "self"))
    other = entry("other", Part("lit", "Abstract tracer value encountered where concrete value is expected: "),
                  Part("expr", "tracer"))
    index = LookupIndex([index_error, other])
    line = "The __index__ method was called on the JAX Tracer object"
    message = (line + "\nTraced<ShapedArray(int32[])>.\n\nThis error can occur when a JAX Tracer object is used as"
               " an index for a non-JIT-compatible object, such as a Python list or tuple. This can often be fixed"
               " by converting the indexed object to a JAX array, for example by changing `obj[idx]` to"
               " `jnp.asarray(obj)[idx]`.")
    whole = FUZZY_CEILING * fuzzy_ratio(normalize(message), index_error.fuzzy_key) / 100
    first = FIRST_LINE_CEILING * FUZZY_CEILING * fuzzy_ratio(normalize(line), index_error.fuzzy_key) / 100
    assert whole < MATCH_FLOOR <= first
    [found] = index.lookup(Query(message, "TypeError"))
    assert (found.entry.error_id, found.how, found.score) == ("index", "fuzzy", round(first, 4))
    [alone] = index.lookup(Query(line, "TypeError"))  # a message of one line is scored as a whole
    assert alone.score == round(FUZZY_CEILING * fuzzy_ratio(normalize(line), index_error.fuzzy_key) / 100, 4)


def test_of_cards_scoring_the_same_one_whose_current_words_fit_comes_first_and_a_card_keeps_its_better_score():
    """`dispatch.py` and `pjit.py` both raise `Argument '{}' of type {} is not a valid JAX type.`, and an old
    `TypeError` wording of the same words leads to `pjit.py`'s card: the card whose own words fit comes first,
    whatever the ids. A message whose whole text reads more like a template than its first line keeps the whole's
    fuzzy score."""
    from jax_errors.lookup.index import FUZZY_CEILING, Entry, LookupIndex, fuzzy_ratio, normalize
    from jax_errors.template import Part, Template

    words = (Part("lit", "Argument '"), Part("expr", "arg"), Part("lit", "' of type "), Part("expr", "type(arg)"),
             Part("lit", " is not a valid JAX type."))
    dispatch = Entry("b-dispatch", "TypeError", Template(words), "jax/_src/dispatch.py", 1, "jax-v0.12.1",
                     live_id="b-dispatch")
    old = Entry("c-old", "TypeError", Template(words), "jax/_src/interpreters/xla.py", 1, "jax-v0.4.25",
                live_id="a-pjit", until="jax-v0.4.25")
    pjit = Entry("a-pjit", "InvalidInputException", Template(words), "jax/_src/pjit.py", 1, "jax-v0.12.1",
                 live_id="a-pjit")
    first, second = LookupIndex([dispatch, pjit, old]).lookup(
        Query("Argument 'cpu:0' of type <class 'CpuDevice'> is not a valid JAX type.", "TypeError"))
    assert first.score == second.score and (first.entry.error_id, first.matched) == ("b-dispatch", None)
    assert second.entry.error_id == "a-pjit" and second.matched.error_id == "c-old"

    carry = Entry("carry", "TypeError", Template((Part("lit", "the carry output of the body function must have the "
                                                         "same shape and dtype as its input, got "),
                                                 Part("expr", "x"))), "jax/loops.py", 1, "jax-v0.12.1",
                  live_id="carry")
    line = "the carry went wrong in the body"
    message = line + "\nthe carry output of the body function must have the same shape and dtype as its input"
    [found] = LookupIndex([carry]).lookup(Query(message, "TypeError"))
    whole = FUZZY_CEILING * fuzzy_ratio(normalize(message), carry.fuzzy_key) / 100
    assert found.how == "fuzzy" and found.score == round(whole, 4)
    assert whole > FUZZY_CEILING * FUZZY_CEILING * fuzzy_ratio(normalize(line), carry.fuzzy_key) / 100 > 0


def test_a_stored_index_answers_as_the_index_does_and_a_lookup_reads_few_of_its_entries(index, monkeypatch):
    """The CLI reads the index pickled beside its database (`lookup.stored`): each entry's row is unpickled only when
    a lookup needs it, and a message's regexes compiled only for templates whose literal words it holds in order."""
    import pickle

    query = Query("pmap requires at least one argument with a mapped axis.", "ValueError")
    stored = pickle.loads(pickle.dumps(index, protocol=pickle.HIGHEST_PROTOCOL))
    assert len(stored.entries) == len(index.entries) and not stored.entries._made
    [(best_path, best_how), *_] = [(m.entry.path, m.how) for m in stored.lookup(query)]
    made = stored.entries._made.values()
    assert (best_path, best_how) == ("jax/_src/pmap.py", "template") and 0 < len(made) < len(index.entries) / 50
    assert sum("regex" in entry.__dict__ for entry in made) < len(made) / 5  # the rest told apart by their words
    for case in issue_messages():
        query = Query(case["message"], case["exception"].rpartition(".")[2])
        assert [(m.entry.error_id, m.score, m.how, [s.error_id for s in m.sites]) for m in stored.lookup(query)] == \
               [(m.entry.error_id, m.score, m.how, [s.error_id for s in m.sites]) for m in index.lookup(query)]
    assert stored.entries[:3] == index.entries[:3]
    # The literal words told apart only texts the regexes reject: the same answers with the regexes alone.
    from jax_errors.lookup.index import Entry, LookupIndex

    answers = [[(m.entry.error_id, m.score, m.how) for m in stored.lookup(Query(case["message"]))]
               for case in issue_messages()]
    monkeypatch.setattr(Entry, "matches", lambda entry, text: entry.regex.fullmatch(text) is not None)
    assert answers == [[(m.entry.error_id, m.score, m.how) for m in stored.lookup(Query(case["message"]))]
                       for case in issue_messages()]
    rows = [entry.row() for entry in index.entries]  # as format 17 kept them
    with pytest.raises(TypeError):  # fails as it is read (and is built again), not at a later lookup
        object.__new__(LookupIndex).__setstate__({**stored.__dict__, "entries": rows})


def test_a_class_alone_gets_no_card_though_templates_whose_words_are_all_optional_fit_it(index):
    """`if message is None: message = f"{name}: Buffers ... cannot be referenced directly..."` makes every word of
    the template optional, so its regex fits an empty message. The match spells none of those words: a bare
    `ValueError:` got that card and three more alike at 0.9 to 1.0 before a match was credited with no more
    literal text than the message holds (none: an empty message was scored as if all of it were the template's)."""
    from jax_errors.lookup.index import MATCH_FLOOR, literal_score

    optional_only = [e for e in index.entries if e.literal_length and e.matches("")]
    assert len(optional_only) >= 4
    for pasted in ("ValueError:", "AssertionError", "TypeError: "):
        assert index.lookup(pasted) == []
    assert literal_score(128, "") == literal_score(0, "x") < MATCH_FLOOR <= literal_score(1, "x")
