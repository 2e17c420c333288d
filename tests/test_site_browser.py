"""The built site in real headless Chromium: a card renders, and Pagefind's search finds it.

Playwright drives Debian's /usr/bin/chromium (scripts/setup-browser.sh installs it); its own
browser download is never used. A missing Chromium fails this test: CI must prove the site works.
"""

import json
import os
import urllib.parse
from contextlib import contextmanager
from pathlib import Path
from threading import Thread

import pytest

from jax_errors.site_gen.serve import make_server

# Chromium on the whole installed catalogue's site (built once, ~25 s).
pytestmark = pytest.mark.slow

CHROMIUM = Path(os.environ.get("JAX_ERRORS_CHROMIUM", "/usr/bin/chromium"))
# The machine's network is closed: nothing may phone home.
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
ARTIFACTS = Path(__file__).parent.parent / "test-artifacts"
SEED_ID = "252d5ba9437acc7a"
SEED_QUERY = "all_gather_reduced only accepts inputs that are varying"
TIMEOUT_MS = 20_000


@contextmanager
def served(site: Path):
    """The URL of `site` served on a free local port, for as long as the block runs."""
    server = make_server(site, 0)
    thread = Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(scope="module")
def base_url(built_site):
    with served(built_site.out) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"no Chromium at {CHROMIUM}: run scripts/setup-browser.sh (or set JAX_ERRORS_CHROMIUM)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    yield page
    context.close()


def test_seed_card_renders(page, base_url):
    page.goto(base_url + f"errors/{SEED_ID}.html")
    assert page.locator("h1").inner_text() == "all_gather_reduced only accepts inputs that are varying. Got …"
    marked = page.locator("#source-section .line.hl")
    assert marked.count() == 2
    assert "raise ValueError('all_gather_reduced only accepts inputs that are'" in marked.first.inner_text()
    assert page.locator("#message-section pre.message").inner_text().endswith("Got {x_aval.str_short(True)}")
    # The stylesheet applied: the raise line is highlighted, the card has its side column.
    background = marked.first.evaluate("e => getComputedStyle(e).backgroundColor")
    assert background not in ("rgba(0, 0, 0, 0)", "transparent")
    assert page.locator("aside.card-side").is_visible()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "seed-card.png"), full_page=True)
    assert page.errors == []


def first_full_text_result(page, base_url: str, query: str):
    """The first result of the search page's full-text search (Pagefind) for `query`."""
    page.goto(base_url + "search.html")
    search = page.locator(".pagefind-ui__search-input")
    search.wait_for(timeout=TIMEOUT_MS)
    search.fill(query)
    first = page.locator(".pagefind-ui__result-link").first
    first.wait_for(timeout=TIMEOUT_MS)
    return first


def test_search_finds_the_seed_card(page, base_url):
    first = first_full_text_result(page, base_url, SEED_QUERY)
    assert first.get_attribute("href") == f"/errors/{SEED_ID}.html"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "search.png"), full_page=True)
    first.click()
    page.wait_for_url(base_url + f"errors/{SEED_ID}.html", timeout=TIMEOUT_MS)
    assert page.locator("h1").inner_text().startswith("all_gather_reduced only accepts inputs")
    assert page.errors == []


def test_header_search_box_carries_the_query(page, base_url):
    page.goto(base_url + "index.html")
    page.locator(".hero-search textarea[name=q]").fill(SEED_QUERY)
    page.locator(".hero-search button").click()
    first = page.locator(".pagefind-ui__result-link").first
    first.wait_for(timeout=TIMEOUT_MS)
    assert first.get_attribute("href") == f"/errors/{SEED_ID}.html"
    assert page.errors == []


def test_a_whole_message_with_its_values_finds_its_card_in_full_text(page, base_url):
    """Pagefind wants every word it is given: the values JAX filled in (`f32[1]`) and the class are left out."""
    first = first_full_text_result(page, base_url, f"ValueError: {SEED_QUERY}. Got f32[1]")
    assert first.get_attribute("href") == f"/errors/{SEED_ID}.html"
    assert page.errors == []


def test_a_message_with_words_on_no_card_is_searched_again_with_fewer(page, base_url):
    """Pagefind wants every word: words no card holds among the first 8 leave the first 6, then 4, to find it."""
    import urllib.parse

    pasted = f"ValueError: {SEED_QUERY} xylophone quasar. Got f32[1]"
    page.goto(base_url + "search.html?q=" + urllib.parse.quote(pasted))
    first = page.locator(".pagefind-ui__result-link").first
    first.wait_for(timeout=TIMEOUT_MS)
    assert first.get_attribute("href") == f"/errors/{SEED_ID}.html"
    typed = first_full_text_result(page, base_url, f"{SEED_QUERY} xylophone")  # typed, not linked
    assert typed.get_attribute("href") == f"/errors/{SEED_ID}.html"
    assert page.errors == []


def test_what_full_text_search_says_of_a_long_message_stays_in_its_box_on_a_phone(browser, base_url):
    """Pagefind's "No results for ..." repeats the pasted message: on a phone it takes lines, and its box grows with
    them instead of the text running over the footer."""
    import urllib.parse

    phone = browser.new_page(viewport={"width": 390, "height": 900})
    pasted = "RuntimeError: " + " ".join(f"xylophone{i} quasar{i}" for i in range(12))
    phone.goto(base_url + "search.html?q=" + urllib.parse.quote(pasted))
    said = phone.locator(".pagefind-ui__message")
    said.wait_for(timeout=TIMEOUT_MS)
    phone.wait_for_function("document.querySelector('.pagefind-ui__message').innerText.startsWith('No results')",
                            timeout=TIMEOUT_MS)
    held, lines, below = said.evaluate("""m => {
        const style = getComputedStyle(m), padding = parseFloat(style.paddingTop) + parseFloat(style.paddingBottom);
        return [m.scrollHeight <= m.clientHeight + 1, (m.clientHeight - padding) / parseFloat(style.lineHeight),
                document.querySelector('footer').getBoundingClientRect().top >= m.getBoundingClientRect().bottom];
    }""")
    assert held and below and lines >= 3
    phone.close()


def test_a_traceback_pasted_in_the_header_box_keeps_its_lines(page, base_url):
    page.goto(base_url + "modules/index.html")
    box = page.locator(".site-search textarea[name=q]")
    box.fill(TRACEBACK)
    box.press("Enter")
    page.wait_for_url("**/search.html?q=*", timeout=TIMEOUT_MS)
    assert page.locator("#lookup-input").input_value().strip() == TRACEBACK.strip()
    first = page.locator("#lookup-results li").first
    first.wait_for(timeout=TIMEOUT_MS)
    assert first.locator("a.lookup-link").get_attribute("href") == base_url + f"errors/{SEED_ID}.html"
    assert page.errors == []


TRACEBACK = f'''Traceback (most recent call last):
  File "/home/me/train.py", line 12, in <module>
    y = f(x)
  File "/usr/lib/python3.12/site-packages/jax/_src/lax/parallel.py", line 2491, in _all_gather_reduced_effectful_abstract_eval
    raise ValueError('all_gather_reduced only accepts inputs that are'
ValueError: {SEED_QUERY}. Got f32[1]
'''


def test_pasted_traceback_lists_the_seed_card_first(page, base_url):
    page.goto(base_url + "search.html")
    page.locator("#lookup-input").fill(TRACEBACK)
    first = page.locator("#lookup-results li").first
    first.wait_for(timeout=TIMEOUT_MS)
    assert first.locator("a.lookup-link").get_attribute("href") == base_url + f"errors/{SEED_ID}.html"
    assert first.locator(".lookup-score").inner_text() == "1.000"  # template, class, frame and reproduction
    assert "lookup-template" in first.locator(".lookup-score").get_attribute("class")
    assert page.errors == []


def test_a_message_several_sites_raise_shows_the_site_its_words_name(page, base_url, site_db_path):
    """The result heads with `Tracer.delete`'s card, of the many raising `ConcretizationTypeError`'s words, and says
    which of its own words the message holds."""
    from jax_errors.db.engine import open_database
    from jax_errors.site_gen.catalogue import load_catalogue

    cards = load_catalogue(open_database(site_db_path)).cards.values()
    [deleted] = [c for c in cards if c.site.qualname == "Tracer.delete"]
    page.goto(base_url + "search.html")
    page.locator("#lookup-input").fill("ConcretizationTypeError: Abstract tracer value encountered where concrete "
                                       "value is expected: traced array with shape float32[3]\nThe delete() method "
                                       "was called on traced array with shape float32[3].")
    first = page.locator("#lookup-results li").first
    first.wait_for(timeout=TIMEOUT_MS)
    assert first.locator("a.lookup-link").get_attribute("href") == base_url + f"errors/{deleted.id}.html"
    meta = first.locator(".lookup-meta").inner_text()
    assert "sites raising this message · this site's own words: “The delete() method was called on”" in meta
    assert page.errors == []


JS_RANK = """m => [m.entry.id, m.score, m.how, m.matched ? m.matched.until : null,
                    m.entry.live_id === null ? m.entry.until : null, m.sites.map(s => s.id)]"""


def page_ranked(page, base_url, catalogue, texts) -> list[list]:
    """What the page's lookup gives each text (`JS_RANK`), over the lookup.json of `catalogue`."""
    from jax_errors.lookup.browser import lookup_record

    page.goto(base_url + "search.html")
    return page.evaluate("""([record, texts]) => {
        const matcher = window.jaxErrorsLookup.Matcher(record);
        return texts.map(t => matcher.lookup(t).map(%s));
    }""" % JS_RANK, [lookup_record(catalogue), texts])


def ranked(matches) -> list[list]:
    """What the parity tests compare: each result's card, score, method, wording, removal and sites."""
    return [[m.entry.error_id, m.score, m.how, m.worded_until, m.removed_after, [s.error_id for s in m.sites]]
            for m in matches]


def test_site_lookup_ranks_real_messages_as_the_cli_does(page, base_url, site_db_path):
    """static/lookup.js over api/lookup.json gives lookup.py's cards, scores and order on every evaluation message,
    on the first line of each that has several, and on each cut short."""
    import json

    from sqlalchemy.orm import Session

    from jax_errors.db.engine import open_database
    from jax_errors.lookup.build import index_from_session
    from jax_errors.lookup.index import Query, first_line_of, parse_query

    data = json.loads((Path(__file__).parent / "data" / "issue_messages.json").read_text())
    lines = [{**d, "message": first_line_of(d["message"])} for d in data if len(d["message"].strip().splitlines()) > 1]
    # ... and each message cut two thirds of the way through, as an issue's long title is, ending in an ellipsis
    cut = [{**d, "message": d["message"][:len(d["message"]) * 2 // 3] + "…"} for d in data]
    queries = [{"message": d["message"], "excClass": d["exception"].rpartition(".")[2], "jaxFrames": []}
               for d in data + lines + cut]
    # ... and messages NumPy words (#746, #2040): by templates alone.
    queries += [{"message": message, "excClass": cls, "jaxFrames": []}
                for cls, message in (("ValueError", "cannot reshape array of size 12 into shape (3,)"),
                                     ("IndexError", "too many indices for array"))]
    # ... and a name jax removed, read as though the module lacked it: the card of its table's entry comes second.
    queries.append({"message": "module 'jax' has no attribute 'device_put_replicated'", "excClass": "AttributeError",
                    "jaxFrames": []})
    with Session(open_database(site_db_path)) as session:
        index = index_from_session(session)
    expected = [ranked(index.lookup(Query(q["message"], q["excClass"]))) for q in queries]
    expected.append(ranked(index.lookup(parse_query(TRACEBACK))))
    page.goto(base_url + "search.html")
    got = page.evaluate("""async ([queries, traceback]) => {
        const matcher = await window.jaxErrorsLookup.load();
        for (let i = 0; i < matcher.count; i++) if (matcher.entryAt(i).regex) matcher.regexOf(i);  // every regex compiles
        const record = await (await fetch("api/lookup.json")).json();
        record.first_lines.regex.forEach(r => new RegExp(r, "u"));  // and every first line's
        const rank = q => matcher.lookup(q).map(%s);
        return [queries.map(rank).concat([rank(traceback)]), queries.map(q => matcher.noCardMessage(q))];
    }""" % JS_RANK, [queries, TRACEBACK])
    got, said = got
    assert sum(1 for e in expected if e) >= 100  # the comparison covers real matches, not empty lists
    assert any(m[2] == "first-line" for e in expected for m in e)  # and first-line matches
    assert any(m[2] == "first-sentence" for e in expected for m in e)  # and first-sentence ones
    assert sum(1 for e in expected for m in e if m[2] == "cut") >= 50  # and messages cut short
    assert [m[2] for m in expected[-2][:2]] == ["template", "removed-name"]  # and a name jax removed
    assert got == expected
    # What the page says when no card matches is what the CLI says, for every message.
    from jax_errors.lookup import origin

    words = {origin.NO_SITE: "xla", origin.NO_RAISE: "python", origin.NO_NUMPY_RAISE: "numpy", origin.NO_CARD: "none"}
    verdicts = [words[origin.no_card_verdict(Query(q["message"], q["excClass"]))] for q in queries]
    messages = page.evaluate("async () => (await (await fetch('api/lookup.json')).json()).messages")
    assert said == [messages[kind] for kind in verdicts] and {"xla", "python", "numpy", "none"} <= set(verdicts)
    # Every card's title is the catalogue's, though the file sends none for most: the page makes them from the held
    # text it carries for messages cut short.
    titles, sent = page.evaluate("""async () => {
        const matcher = await window.jaxErrorsLookup.load();
        const shown = new Map();
        for (let i = 0; i < matcher.count; i++) shown.set(matcher.entryAt(i).id, matcher.entryAt(i).title);
        const cards = (await (await fetch("api/errors.json")).json()).errors;
        return [cards.map(card => [card.summary, shown.get(card.id)]), matcher.record.entries.title];
    }""")
    assert len(titles) > 5000 and [shown for _, shown in titles] == [summary for summary, _ in titles]
    assert sum(1 for title in sent if title is None) > len(sent) * 3 // 4
    assert page.errors == []


def test_site_lookup_folds_a_removed_lineage_as_the_cli_does(page, base_url, git_repo, tmp_path):
    """The wordings of a check reworded and then removed make one result on the page, as in the CLI."""
    from test_lookup_history import REMOVED_LINEAGE, removed_lineage_catalogue

    from jax_errors.lookup.browser import catalogue_index
    from jax_errors.lookup.index import parse_query
    from jax_errors.site_gen.catalogue import load_catalogue

    catalogue = load_catalogue(removed_lineage_catalogue(git_repo, tmp_path / "catalogue.db"))
    index = catalogue_index(catalogue)
    texts = [f"ValueError: {REMOVED_LINEAGE[0]}", "ValueError: pmap requires a leading axis to map over, got (3,)."]
    expected = [ranked(index.lookup(parse_query(t))) for t in texts]
    assert [len(e) for e in expected] == [1, 1] and expected[0][0][0] != expected[1][0][0]
    assert page_ranked(page, base_url, catalogue, texts) == expected


def test_site_lookup_names_what_a_module_said_of_a_name_it_removed_as_the_cli_does(page, base_url, git_repo, tmp_path):
    """A module lacking a name it removed: the page shows the card of the name's entry second, as the CLI does."""
    from test_lookup_history import TREE_LEAVES, removed_names_catalogue

    from jax_errors.lookup.browser import catalogue_index
    from jax_errors.lookup.index import parse_query
    from jax_errors.site_gen.catalogue import load_catalogue

    catalogue = load_catalogue(removed_names_catalogue(git_repo, tmp_path / "catalogue.db"))
    index = catalogue_index(catalogue)
    texts = ["AttributeError: module 'jax' has no attribute 'tree_leaves'. Did you mean: 'tree_map'?",
             "AttributeError: module 'jax' has no attribute 'tree_fold'", TREE_LEAVES]
    expected = [ranked(index.lookup(parse_query(t))) for t in texts]
    assert [m[2] for m in expected[0]] == ["template", "removed-name"] and [m[2] for m in expected[1]] == ["template"]
    assert page_ranked(page, base_url, catalogue, texts) == expected


def test_site_lookup_leads_a_removed_raise_s_added_words_to_the_message_held_as_the_cli_does(page, base_url, git_repo,
                                                                                              tmp_path):
    """A message a removed raise added a hint to: the page shows the card of the message it held first, as the CLI
    does; pasted without its last line, and with words no card fits, too."""
    from test_lookup_history import GATHER_WRAPPED, wrapper_catalogue

    from jax_errors.lookup.browser import catalogue_index
    from jax_errors.lookup.index import HELD, parse_query
    from jax_errors.site_gen.catalogue import load_catalogue

    catalogue = load_catalogue(wrapper_catalogue(git_repo, tmp_path / "catalogue.db"))
    index = catalogue_index(catalogue)
    texts = [GATHER_WRAPPED, GATHER_WRAPPED.rpartition("\n")[0],
             GATHER_WRAPPED.replace("Gather op has", "Scatter op had"),
             GATHER_WRAPPED.replace(" and the bound", " but the bound"),  # words that read much like the check's
             "RuntimeError: Gather op failed: the index map has 3 elements and the bound of dimension "
             "index_vector_dim=-1 differs.\n" + GATHER_WRAPPED.partition("\n")[2]]  # and a little like them
    expected = [ranked(index.lookup(parse_query(t))) for t in texts]
    assert [e[0][2] for e in expected] == [HELD, HELD, "template", HELD, "template"]
    assert page_ranked(page, base_url, catalogue, texts) == expected


def test_site_lookup_follows_history_as_the_cli_does(page, base_url, git_repo, tmp_path):
    """Old wordings, removed errors, one message at several sites and frames: the browser's answers are the CLI's."""
    from test_lookup_history import CONCRETE, two_release_catalogue

    from jax_errors.lookup.browser import catalogue_index, lookup_record
    from jax_errors.lookup.index import FIRST_LINE_CEILING, parse_query
    from jax_errors.site_gen.catalogue import load_catalogue

    catalogue = load_catalogue(two_release_catalogue(git_repo, tmp_path / "catalogue.db"))
    index = catalogue_index(catalogue)
    texts = ["ValueError: vmap in_axes must match the number of arguments, got 2 for 3",
             "TypeError: the legacy xmap path was removed long ago and nothing replaces it: 3",
             "NameError: unbound axis name: i",
             'Traceback (most recent call last):\n  File "/x/jax/_src/names.py", line 5, in f\n'
             "NameError: unbound axis name: i",
             "Invalid argument: vmap in_axes has 2 entries but the function takes 3 arguments",
             "XlaRuntimeError: INVALID_ARGUMENT: vmap in_axes are wrong",
             "TypeError: scan carry output and input must have the same shape, got (3,)",
             "TypeError: scan carry output and input must have the same shape, got (3,) where the body was given "
             "(2,) before the first iteration",
             "ValueError: Cannot divide evenly the sizes of shapes (2, 3) and (7,)",
             "ValueError: Cannot lower jaxpr with verifier errors: 2 ops (see the dump)",
             'ValueError: "vmap in_axes has 2 entries\\nbut the function takes 3 arguments"',
             "ValueError: Pure callbacks do not support transpose.",
             "AttributeError: module 'jax' has no attribute 'partial'",
             "ValueError: vmap has mapped output but out_axes is None",
             "TypeError: The __index__() method was called on the JAX Tracer object Traced<int32[]>",
             "ValueError: pytree structure error: different lengths at key path shard_map in_specs",
             CONCRETE + "The delete() method was called on Traced<f32[]>.",
             CONCRETE + "The problem arose with the `float` function.",
             CONCRETE + "The axis argument must be known statically."]
    expected = [[ranked(index.lookup(parse_query(t))), index.lookup(parse_query(t)) == []] for t in texts]
    page.goto(base_url + "search.html")
    got = page.evaluate("""([record, texts]) => {
        const matcher = window.jaxErrorsLookup.Matcher(record);
        return texts.map(t => { const m = matcher.lookup(t); return [m.map(%s), m.length === 0]; });
    }""" % JS_RANK, [lookup_record(catalogue), texts])
    (worded, _), (removed, _), (shared, _), (framed, _), (prefixed, _), (xla, nothing), (short, _), (full, _), \
        (tied, _), (led, _), (quoted, _), (cut, _), (repr_quoted, _), (handled, _), (earlier, _), (made, _), \
        (method, _), (function, _), (passed, _) = expected
    assert worded[0][3] == "jax-v0.0.1" and removed[0][4] == "jax-v0.0.1" and len(shared[0][5]) == 2
    assert framed[0][0] != shared[0][0] and prefixed[0][2] == "template" and nothing
    assert short[0][0] == full[0][0] and short[0][2] == full[0][2] == "template"  # the optional part is optional
    assert tied[0][1] == tied[1][1] and tied[0][4] is None and tied[1][4] == "jax-v0.0.1"  # the live card first
    assert led[0][1] == led[1][1] and led[0][0] > led[1][0]  # the message's words follow the first card's further
    assert quoted[0][0] == prefixed[0][0] and quoted[0][2] == "template"  # a JSON string is read as its text
    # its first sentence only: the template's first sentence fits it
    assert cut[0][1] == FIRST_LINE_CEILING and cut[0][2] == "first-sentence" and cut[1][1] < cut[0][1]
    assert len(repr_quoted[0][5]) == 2  # `'{name}'` and `{name!r}` word one message
    assert handled[0][3] == "jax-v0.0.1" and index.entry(handled[0][0]).path == "jax/_src/axes.py"
    assert index.entry(handled[0][0]).template.skeleton.startswith("at vmap out_axes")  # the clause handling the class
    assert earlier[0][3] == "jax-v0.0.1" and index.entry(earlier[0][0]).path == "jax/_src/tracers.py"  # a class's
    assert len(made[0][5]) == 2 and index.entry(made[0][0]).exc_class == "ValueError"  # what makers make
    # The words a raise passes pick the site of a message four raise.
    assert [index.entry(r[0][0]).lineno for r in (method, function, passed)] == [8, 16, 24]
    assert got == expected
    # What the page says when no card matches: raised inside XLA, by the Python interpreter, or neither.
    record = lookup_record(catalogue)
    said = page.evaluate("""([record, texts]) => {
        const matcher = window.jaxErrorsLookup.Matcher(record);
        return texts.map(t => {
            const q = matcher.parseQuery(t);
            return [matcher.lookup(q).length, matcher.noCardMessage(q)];
        });
    }""", [record, ["XlaRuntimeError: INTERNAL: an op with no lowering", "ModuleNotFoundError: No module named 'jax.maps'",
                    "ValueError: nothing in this catalogue reads like these words"]])
    assert said == [[0, record["messages"][kind]] for kind in ("xla", "python", "none")]
    assert page.errors == []


def test_no_page_is_wider_than_a_phone(browser, base_url, built_site):
    """At 390 px, cards, the home page and the change pages fit: long code scrolls inside its own box."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    cards = sorted(p.name for p in (built_site.out / "errors").glob("*.html"))[::25]  # a spread of about 220
    pages = ["index.html", "diffs/index.html", "search.html", f"errors/{SEED_ID}.html"] + [f"errors/{n}" for n in cards]
    wide = []
    for name in pages:
        page.goto(base_url + name)
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > 390:
            wide.append((name, width))
    context.close()
    assert wide == []


def _first_link(site: Path, page: str, prefix: str) -> str:
    """The first link of `page` into the folder `prefix`, as a path from the site's root."""
    import re

    html = (site / page).read_text(encoding="utf-8")
    folder = page.rpartition("/")[0]
    for href in re.findall(r'href="([^"#?]+\.html)"', html):
        path = (Path(folder) / href).as_posix() if folder else href
        normal = os.path.normpath(path)
        if normal.startswith(prefix) and normal != page:
            return normal
    raise AssertionError(f"no link into {prefix} on {page}")


@pytest.fixture(scope="module")
def history_site(git_repo_module):
    """A two-release site with its commit history: the only kind with a page for the change between two snapshots
    (diff.html), and with cards that list commits."""
    from test_lookup_history import two_release_catalogue

    from jax_errors.crawler.history import crawl_history
    from jax_errors.crawler.repository import JaxRepository
    from jax_errors.site_gen.build import SiteConfig, build_site

    repo, tmp = git_repo_module
    engine = two_release_catalogue(repo, tmp / "history.db")
    with JaxRepository(repo.path) as repository:
        crawl_history(engine, repository)  # cards then show the commits that changed their errors
    report = build_site(engine, SiteConfig(out=tmp / "_site", knowledge_dir=tmp / "none", cases_dir=tmp / "none",
                                           search=False))
    with served(report.out) as url:
        yield report.out, url


@pytest.fixture(scope="module")
def git_repo_module(tmp_path_factory):
    from conftest import GitRepoBuilder

    tmp = tmp_path_factory.mktemp("history-site")
    builder = GitRepoBuilder(tmp / "jax")
    yield builder, tmp
    builder.repo.close()


def _every_template(built_site, history_site) -> list[tuple[str, str, str]]:
    """(template, base URL, page): one page of each page template, and the uncurated and curated cards."""
    site, (small, small_url) = built_site.out, history_site
    uncurated = next(p.name for p in sorted((site / "errors").glob("*.html"))
                     if 'id="solutions-section"' not in p.read_text(encoding="utf-8"))
    with_commits = next(p.name for p in sorted((small / "errors").glob("*.html"))
                        if 'class="commit-events"' in p.read_text(encoding="utf-8"))
    with_docs = next(p.name for p in sorted((site / "errors").glob("*.html"))
                     if 'id="docs-section"' in p.read_text(encoding="utf-8"))
    return [
        ("home.html", "", "index.html"), ("search.html", "", "search.html"),
        ("card.html (curated)", "", f"errors/{SEED_ID}.html"), ("card.html (uncurated)", "", f"errors/{uncurated}"),
        ("groups.html", "", "modules/index.html"), ("group.html", "", _first_link(site, "modules/index.html", "modules/")),
        ("group.html (curated)", "", "curated.html"), ("diffs.html", small_url, "diffs/index.html"),
        ("diff.html", small_url, _first_link(small, "diffs/index.html", "diffs/")),
        ("card.html (commit by commit)", small_url, f"errors/{with_commits}"),
        ("card.html (JAX's docs)", "", f"errors/{with_docs}"),
    ]


@pytest.mark.parametrize("width", [390, 1280])
def test_every_page_template_fits_and_its_navigation_works(browser, base_url, built_site, history_site, width):
    """At a phone's and a desktop's width: no page scrolls sideways, every header link is on screen, and one works."""
    context = browser.new_context(viewport={"width": width, "height": 844})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    problems = []
    for template, root, path in _every_template(built_site, history_site):
        page.goto((root or base_url) + path)
        scroll_width = page.evaluate("document.documentElement.scrollWidth")
        if scroll_width > width:
            problems.append((template, path, f"{scroll_width} px wide"))
        links = page.locator("nav.site-nav a")
        for i in range(links.count()):
            box = links.nth(i).bounding_box()
            if box is None or box["x"] < 0 or box["x"] + box["width"] > width or not links.nth(i).is_visible():
                problems.append((template, path, f"nav link {i} off screen: {box}"))
        header_search = page.locator("header textarea[name=q]")
        if not header_search.is_visible():
            problems.append((template, path, "no search box in the header"))
    page.goto(base_url + f"errors/{SEED_ID}.html")
    page.locator("nav.site-nav a", has_text="Modules").click()
    page.wait_for_load_state()
    assert page.url.endswith("modules/index.html")
    context.close()
    assert problems == [] and errors == []


RETIRED_WORDING = {"jax/_src/axes.py": '''
    def check(name, mesh):
        if name not in mesh:
            raise NameError(f"unknown axis name {name} for the mesh: axis name {name} names no axis of the mesh")
'''}
LIVE_WORDING = {"jax/_src/axes.py": '''
    def check(name, mesh):
        if name not in mesh:
            raise NameError(f"unknown axis name {name} for the mesh; a computation over a mesh may only "
                           "use the names it declares, see the documentation of jax.sharding.Mesh")
'''}


def test_full_text_search_lists_the_live_wording_above_a_retired_one(page, git_repo, tmp_path):
    """The retired wording repeats the words more often; its words weigh a quarter, so today's card comes first."""
    from jax_errors.crawler.crawl import crawl_snapshot
    from jax_errors.crawler.repository import JaxRepository
    from jax_errors.db.engine import open_database
    from jax_errors.site_gen.build import SiteConfig, build_site
    from jax_errors.site_gen.catalogue import load_catalogue
    from jax_errors.site_gen.links import card_path
    from jax_errors.site_gen.search_index import shard_of

    engine = open_database(tmp_path / "catalogue.db")
    git_repo.commit(RETIRED_WORDING, "old", tag="jax-v0.0.1")
    git_repo.commit(LIVE_WORDING, "new", tag="jax-v0.0.2")
    with JaxRepository(git_repo.path) as repository:
        for tag in ("jax-v0.0.1", "jax-v0.0.2"):
            crawl_snapshot(engine, repository.snapshot(tag))
    cards = load_catalogue(engine).cards.values()
    [retired] = [card.id for card in cards if card.history.retired_since]
    [live] = [card.id for card in cards if not card.history.retired_since]
    report = build_site(engine, SiteConfig(out=tmp_path / "_site", knowledge_dir=tmp_path / "none",
                                           cases_dir=tmp_path / "none"))
    with served(report.out) as url:
        first_full_text_result(page, url, "NameError: unknown axis name 'z' for the mesh")
        links = page.locator(".pagefind-ui__result-link")
        links.nth(1).wait_for(timeout=TIMEOUT_MS)
        assert [links.nth(i).get_attribute("href") for i in range(links.count())] == [
            f"/errors/{live}.html", f"/errors/{retired}.html"]
        # The two cards are in different shards of the index, merged into one search: each shows once,
        # also once the page has checked (300 ms after typing) whether a term's words find a page.
        assert len({shard_of(card_path(card)) for card in (live, retired)}) == 2
        page.wait_for_timeout(1000)
        page.locator(".pagefind-ui__search-input").fill("axis name unknown for the mesh")
        page.locator(".pagefind-ui__message", has_text="for axis name unknown").wait_for(timeout=TIMEOUT_MS)
        assert [links.nth(i).get_attribute("href") for i in range(links.count())] == [
            f"/errors/{live}.html", f"/errors/{retired}.html"]
    assert page.errors == []


def test_a_site_built_without_full_text_search_says_so_and_its_lookup_still_works(page, git_repo, tmp_path):
    from jax_errors.crawler.crawl import crawl_snapshot
    from jax_errors.crawler.repository import JaxRepository
    from jax_errors.db.engine import open_database
    from jax_errors.site_gen.build import SiteConfig, build_site

    engine = open_database(tmp_path / "catalogue.db")
    git_repo.commit(LIVE_WORDING, "new", tag="jax-v0.0.2")
    with JaxRepository(git_repo.path) as repository:
        crawl_snapshot(engine, repository.snapshot("jax-v0.0.2"))
    report = build_site(engine, SiteConfig(out=tmp_path / "_site", knowledge_dir=tmp_path / "none",
                                           cases_dir=tmp_path / "none", search=False))
    assert not (report.out / "pagefind").exists()
    with served(report.out) as url:
        message = ("NameError: unknown axis name 'z' for the mesh; a computation over a mesh may only use the names "
                   "it declares, see the documentation of jax.sharding.Mesh")
        page.goto(url + "search.html?q=" + urllib.parse.quote(message))
        page.locator("#search-unavailable").wait_for(state="visible", timeout=TIMEOUT_MS)
        page.locator("#lookup-results li").first.wait_for(timeout=TIMEOUT_MS)
        assert page.locator(".pagefind-ui__search-input").count() == 0
    assert page.errors == []


def test_the_search_page_tells_what_the_releases_say_of_a_missing_name_as_the_cli_does(page, git_repo, tmp_path):
    """A message saying a module or a name is missing: the page fetches api/names.json and shows the line the CLI
    prints, word for word; a message saying none fetches nothing."""
    from test_name_history import SYNTHETIC_SAID, synthetic_history, two_releases

    from jax_errors.lookup.browser import catalogue_index, names_record
    from jax_errors.lookup.index import parse_query
    from jax_errors.site_gen.build import SiteConfig, build_site
    from jax_errors.site_gen.catalogue import load_catalogue

    engine, _ = two_releases(git_repo, tmp_path)
    catalogue = load_catalogue(engine)
    index = catalogue_index(catalogue)
    texts = ["ModuleNotFoundError: No module named 'jax.experimental.maps'",
             "AttributeError: module 'jax' has no attribute 'tree_multimap'",
             "ImportError: cannot import name 'tree' from 'jax' (/usr/lib/python3/site-packages/jax/__init__.py)",
             "module 'jax.experimental' has no attribute 'maps'", "AttributeError: module 'jax' has no attribute 'jit'",
             "No module named 'jax.experimental.maps.sub'", "\"cannot import name 'maps' from 'jax.experimental'\""]
    expected = [index.name_said(parse_query(t)) for t in texts]
    assert [e is not None for e in expected] == [True, True, True, True, False, False, True]
    report = build_site(engine, SiteConfig(out=tmp_path / "_site", knowledge_dir=tmp_path / "none",
                                           cases_dir=tmp_path / "none", search=False))
    assert json.loads((report.out / "api/names.json").read_text()) == names_record(catalogue)
    with served(report.out) as url:
        page.goto(url + "search.html")
        assert page.evaluate("""async (texts) => {
            const matcher = await window.jaxErrorsLookup.load();
            const history = await window.jaxErrorsLookup.loadNames(matcher);
            return texts.map(t => matcher.nameSaid(history, matcher.parseQuery(t)));
        }""", texts) == expected
        # every kind of span, as names.py words it
        assert page.evaluate("""async ([history, texts]) => {
            const matcher = await window.jaxErrorsLookup.load();
            return texts.map(t => matcher.nameSaid(history, matcher.parseQuery(t)));
        }""", [synthetic_history().as_json(), list(SYNTHETIC_SAID)]) == list(SYNTHETIC_SAID.values())
        fetched = []
        page.on("request", lambda request: fetched.append(request.url))
        page.goto(url + "search.html?q=" + urllib.parse.quote("NameError: unknown axis name 'z'"))
        page.locator("#lookup-status").wait_for(state="visible", timeout=TIMEOUT_MS)
        assert not [u for u in fetched if u.endswith("api/names.json")]
        page.goto(url + "search.html?q=" + urllib.parse.quote(texts[1]))
        page.locator("#lookup-releases").wait_for(state="visible", timeout=TIMEOUT_MS)
        assert page.locator("#lookup-releases").text_content() == expected[1]
        page.locator("#lookup-input").fill("")
        page.locator("#lookup-releases").wait_for(state="hidden", timeout=TIMEOUT_MS)
    assert page.errors == []
