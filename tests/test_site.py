"""The static site and its JSON export, built from tiny synthetic catalogues: escaping, snapshots, the CLI."""

import json
import re
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner
from site_pages import read, section
from sqlalchemy import select
from sqlalchemy.orm import Session

from jax_errors.cli import cli
from jax_errors.crawler.crawl import crawl_snapshot
from jax_errors.crawler.imports import module_name
from jax_errors.crawler.repository import JaxRepository
from jax_errors.db.engine import open_database
from jax_errors.db.models import Occurrence, RaiseSite
from jax_errors.exceptions import JaxErrorsError
from jax_errors.site_gen.build import SiteConfig, build_site
from jax_errors.site_gen.highlight import code_block
from jax_errors.site_gen.links import github_url, slug
from jax_errors.site_gen.output import MARKER, SiteError
from jax_errors.site_gen.related import jaccard, words
from jax_errors.site_gen.render import environment
from jax_errors.site_gen.serve import make_server
from jax_errors.template import Template


def test_serve_needs_a_built_site(tmp_path):
    with pytest.raises(JaxErrorsError, match="no built site"):
        make_server(tmp_path, 0)


ESCAPE_SOURCE = '''
    def check_type(x):
        if not isinstance(x, int):
            raise TypeError(f"expected <class 'int'>, got {type(x)} & not {x!r}")
        if x < 0:
            raise ValueError("<script>alert('boom')</script> must be >= 0")


    def check_other(x):
        raise TypeError(f"expected <class 'int'> here too, got {type(x)}")
'''
ESCAPE_CASE = '''
    """check_type on a float: <class 'float'> is not <class 'int'>."""
    import jax

    EXPECTED = "TypeError"
    TAGS = ["escaping"]
    MESSAGE_CONTAINS = "expected <class 'int'>"


    def trigger():
        return check_type(1.5)  # <b>not bold</b>


    def fixed():
        return check_type(int(1.5))
'''


def _escape_site(git_repo, tmp_path: Path, *, search: bool = True):
    exports = "from jax._src.checks import check_type as check_type\n"  # a public name: the card's Raised by
    git_repo.commit({"jax/__init__.py": exports, "jax/_src/checks.py": ESCAPE_SOURCE}, "checks", tag="jax-v0.0.1")
    engine = open_database(tmp_path / "tiny.db")
    with JaxRepository(git_repo.path) as repository:
        crawl_snapshot(engine, repository.snapshot("jax-v0.0.1"))
    with Session(engine) as session:
        ids = dict(session.execute(
            select(RaiseSite.qualname, Occurrence.error_id).join(Occurrence, Occurrence.site_id == RaiseSite.id)
            .where(RaiseSite.exc_class == "TypeError")
        ).all())
    error_id = ids["check_type"]
    knowledge = tmp_path / "knowledge"
    knowledge.mkdir()
    (knowledge / f"{error_id}.md").write_text(textwrap.dedent(f"""\
        ---
        error_id: {error_id}
        title: check_type wants <class 'int'>
        case: check_type_float
        solutions:
          - Pass an `int`, not <img src=x onerror=alert(1)>.
        situations:
          - Feeding a <float> where an int was meant.
        ---
        Raised when `x` is not an int; <b>raw HTML</b> in knowledge is shown as text.
        """))
    cases = tmp_path / "cases"
    cases.mkdir()
    (cases / "check_type_float.py").write_text(textwrap.dedent(ESCAPE_CASE).lstrip())
    config = SiteConfig(out=tmp_path / "_site", knowledge_dir=knowledge, cases_dir=cases, search=search)
    return build_site(engine, config), error_id, ids["check_other"]


def test_a_heading_shows_one_badge_per_kind_of_source_with_every_note():
    """A card's "When it happens" can be reproduced by a case's traceback, JAX's tests and a probed call at once."""
    heading = environment().from_string('{% from "_macros.html" import heading %}{{ heading("When", "when", s) }}')
    html = heading.render(s=[("reproduced", "traceback of the probed call"), ("extracted", "read from the source"),
                             ("reproduced", "a generated call, run by triggers probe")])
    badges = re.findall(r'<span class="src src-(\w+)" title="([^"]*)"', html)
    assert badges == [("reproduced", "traceback of the probed call; a generated call, run by triggers probe"),
                      ("extracted", "read from the source")]


def test_text_is_escaped_everywhere(git_repo, tmp_path):
    report, error_id, other_id = _escape_site(git_repo, tmp_path)
    site = report.out
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert "<script>alert" not in text and "<img src=x" not in text and "<b>" not in text, page
        assert "<class 'int'>" not in text and "<float>" not in text, page
    card = read(site, f"errors/{error_id}.html")
    assert "expected &lt;class &#39;int&#39;&gt;, got " in section(card, "message")
    assert "&lt;b&gt;raw HTML&lt;/b&gt;" in section(card, "meaning")
    assert "&lt;img src=x onerror=alert(1)&gt;" in section(card, "solutions")
    assert "&lt;class 'int'&gt;" in section(card, "source")  # the highlighter escapes too
    assert "# &lt;b&gt;not bold&lt;/b&gt;" in section(card, "example")
    assert f'href="../errors/{other_id}.html"' in section(card, "related")
    assert '<a href="https://docs.jax.dev/en/latest/_autosummary/jax.check_type.html">' in section(card, "raised-by")
    record = json.loads(read(site, f"api/errors/{error_id}.json"))
    assert record["template"] == "expected <class 'int'>, got {type(x)} & not {x!r}"
    assert record["knowledge"]["title"] == "check_type wants <class 'int'>"
    assert report.indexed == 3



def test_search_is_given_what_a_card_says_once_and_no_boilerplate(git_repo, tmp_path):
    import html
    import re

    from jax_errors.site_gen.search import searchable_document

    report, curated_id, other_id = _escape_site(git_repo, tmp_path, search=False)

    def indexed(error_id: str) -> str:
        document = searchable_document(read(report.out, f"errors/{error_id}.html"))
        return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", document)).split())

    other, curated = indexed(other_id), indexed(curated_id)
    for boilerplate in ("No one has written", "built at run time", "Trigger", "Reached from", "enclosing function"):
        assert boilerplate not in other, boilerplate
    assert other.count("Raised unconditionally") == 1  # said by "What it means", not again by "When it happens"
    assert "Exception class TypeError" in other
    assert "Raised when x is not an int" in curated and "Feeding a <float> where an int was meant" in curated
    assert "Common situations" not in curated and "Pass an int , not <img" in curated

@pytest.mark.parametrize("name", ["card.html", "card.json", "errors.json"])
def test_generated_output_matches_snapshot(git_repo, tmp_path, name, snapshot):
    report, error_id, _ = _escape_site(git_repo, tmp_path, search=False)
    generated = {
        "card.html": f"errors/{error_id}.html", "card.json": f"api/errors/{error_id}.json",
        "errors.json": "api/errors.json",
    }
    snapshot(f"site/{name}", read(report.out, generated[name]))


def test_cards_cover_every_snapshot_and_show_the_newest(git_repo, tmp_path):
    old = git_repo.commit({"jax/__init__.py": "", "jax/_src/checks.py": ESCAPE_SOURCE}, "checks", tag="jax-v0.0.1")
    moved = "# moved down\n\n" + textwrap.dedent(ESCAPE_SOURCE).lstrip().split("def check_other")[0]
    new = git_repo.commit({"jax/_src/checks.py": moved}, "move, drop check_other", tag="jax-v0.0.2")
    engine = open_database(tmp_path / "two.db")
    with JaxRepository(git_repo.path) as repository:
        for tag in ("jax-v0.0.1", "jax-v0.0.2"):
            crawl_snapshot(engine, repository.snapshot(tag))
    report = build_site(engine, SiteConfig(out=tmp_path / "_site", knowledge_dir=tmp_path, cases_dir=tmp_path,
                                           search=False))
    assert report.cards == 3
    index = json.loads(read(report.out, "api/errors.json"))
    assert [s["label"] for s in index["snapshots"]] == ["jax-v0.0.2", "jax-v0.0.1"]
    by_function = {}
    for entry in index["errors"]:
        record = json.loads(read(report.out, entry["json"]))
        by_function[record["function"], record["class"]] = record
    kept = by_function["check_type", "TypeError"]
    assert kept["affected"][0]["versions"] == ["0.0.1", "0.0.2"]
    assert kept["affected"][0]["ranges"][0]["events"] == [{"introduced": old}]
    assert [loc["line"] for loc in kept["locations"]] == [5, 3]
    assert [(loc["from"]["label"], (loc["until"] or {}).get("label")) for loc in kept["locations"]] == [
        ("jax-v0.0.2", None), ("jax-v0.0.1", "jax-v0.0.1")]
    assert kept["history"]["current"] and kept["history"]["versions"] == ["0.0.1", "0.0.2"]
    assert kept["source"]["url"] == f"https://github.com/jax-ml/jax/blob/{new}/jax/_src/checks.py#L5"
    assert kept["modified"] == "2026-01-02T12:00:00Z" and kept["published"] == "2026-01-01T12:00:00Z"
    gone = by_function["check_other", "TypeError"]  # no longer raised: its card shows where it last stood
    assert gone["affected"][0]["versions"] == ["0.0.1"] and gone["source"]["ref"] == old
    assert gone["affected"][0]["ranges"][0]["events"] == [{"introduced": old}, {"fixed": new}]
    assert gone["history"]["last"]["label"] == "jax-v0.0.1" and gone["history"]["retired_since"]["label"] == "jax-v0.0.2"
    assert gone["modified"] == "2026-01-02T12:00:00Z"  # retiring it changed it
    html = read(report.out, kept["links"]["html"])
    assert section(html, "versions").count("<tr><td>jax-v0.0.") == 2
    assert 'class="retired"' not in html
    retired = read(report.out, gone["links"]["html"])
    assert "No longer raised since jax-v0.0.2" in retired and "last raised in jax-v0.0.1" in retired
    diffs = read(report.out, "diffs/index.html")
    assert 'href="../diffs/jax-v0.0.1..jax-v0.0.2.html"' in diffs
    diff = read(report.out, "diffs/jax-v0.0.1..jax-v0.0.2.html")
    assert section(diff, "removed").count("<li>") == 1 and gone["links"]["html"] in section(diff, "removed")
    assert section(diff, "added").count("<li>") == 0


def test_build_command(git_repo, tmp_path):
    git_repo.commit({"jax/__init__.py": "", "jax/_src/checks.py": ESCAPE_SOURCE}, "checks", tag="jax-v0.0.1")
    db = tmp_path / "cli.db"
    runner = CliRunner()
    assert runner.invoke(cli, ["crawl", "--repo", str(git_repo.path), "--rev", "jax-v0.0.1", "--db", str(db)]).exit_code == 0
    out = tmp_path / "out"
    result = runner.invoke(cli, ["build", "--out", str(out), "--db", str(db), "--knowledge", str(tmp_path / "none"),
                                 "--cases", str(tmp_path / "none")])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip().startswith(f"built {out}: 3 cards (0 curated, 0 reproduced)")
    assert (out / MARKER).is_file() and (out / "pagefind" / "shards.js").is_file()
    assert list((out / "pagefind").glob("*/pagefind-entry.json"))
    again = runner.invoke(cli, ["build", "--out", str(out), "--db", str(db), "--no-search",
                                "--knowledge", str(tmp_path / "none"), "--cases", str(tmp_path / "none")])
    assert again.exit_code == 0 and not (out / "pagefind").exists()  # an earlier build is replaced whole


def test_build_refuses_a_folder_that_is_not_a_build(fresh_db, tmp_path):
    (tmp_path / "precious.txt").write_text("keep me")
    with pytest.raises(SiteError, match="refusing to replace"):
        build_site(fresh_db, SiteConfig(out=tmp_path, search=False))
    assert (tmp_path / "precious.txt").read_text() == "keep me"


def test_github_links_pin_a_ref_and_lines():
    assert github_url("abc", "jax/x.py", 3) == "https://github.com/jax-ml/jax/blob/abc/jax/x.py#L3"
    assert github_url("jax-v0.10.2", "jax/x.py", 3, 5).endswith("/blob/jax-v0.10.2/jax/x.py#L3-L5")
    assert module_name("jax/_src/lax/__init__.py") == "jax._src.lax"
    assert slug("ValueError") == "ValueError"
    assert slug("self._error(...)") != slug("self._error[...]")


def test_titles_and_similarity():
    assert Template.from_json([["lit", "bad  "], ["expr", "x"], ["lit", " shape"]]).title == "bad … shape"
    assert Template.from_json([["opaque", "msg"]]).title == ""
    assert jaccard(words("only accepts inputs that are varying {}"), words("only accepts inputs that are reduced {}")) \
        == pytest.approx(5 / 7)


def test_highlighter_escapes_and_marks_lines():
    html = code_block('x = "<a>"  # <b>\nraise E(\n  1)\n', start=7, marked=(8, 9))
    assert '<span class="s">"&lt;a&gt;"</span>' in html and '<span class="c"># &lt;b&gt;</span>' in html
    assert '<span class="k">raise</span> <span class="nb">E</span>' not in html  # E is no builtin
    assert '<span class="k">raise</span>' in html
    assert html.count('class="line hl"') == 2 and '<span class="line hl" id="raise"><span class="ln">8</span>' in html


def test_a_module_whose_file_name_is_no_identifier_still_builds(git_repo, tmp_path):
    git_repo.commit({"jax/foo-bar.py": "def f(x):\n    raise ValueError(f'bad {x}')\n"}, "a file named foo-bar.py")
    engine = open_database(tmp_path / "dash.db")
    with JaxRepository(git_repo.path) as repository:
        crawl_snapshot(engine, repository.snapshot("HEAD"))
    report = build_site(engine, SiteConfig(out=tmp_path / "_site", knowledge_dir=tmp_path, cases_dir=tmp_path,
                                           search=False))
    [entry] = json.loads(read(report.out, "api/errors.json"))["errors"]
    assert entry["module"] == "jax.foo-bar" and (report.out / entry["html"]).is_file()


def test_a_build_reads_one_state_of_the_catalogue_while_a_crawl_commits(git_repo, two_errors, tmp_path, monkeypatch):
    """The crawl lands in the middle of the build's reads; the build shows the catalogue as it was."""
    from jax_errors.db import queries
    from jax_errors.site_gen.catalogue import load_catalogue

    first = git_repo.commit(two_errors, "first", tag="jax-v0.0.1")
    second = git_repo.commit({"jax/third.py": "def h():\n    raise KeyError('a third error')\n"}, "second")
    path = tmp_path / "shared.db"
    engine = open_database(path)
    with JaxRepository(git_repo.path) as repository:
        crawl_snapshot(engine, repository.snapshot(first))
    read_occurrences = queries.catalogue_occurrences

    def crawl_meanwhile(session):
        with JaxRepository(git_repo.path) as repository:  # another engine: as another process would
            crawl_snapshot(open_database(path), repository.snapshot(second))
        return read_occurrences(session)

    monkeypatch.setattr(queries, "catalogue_occurrences", crawl_meanwhile)
    catalogue = load_catalogue(engine)
    assert [s.label for s in catalogue.snapshots] == ["jax-v0.0.1"] and len(catalogue.cards) == 2
    monkeypatch.undo()
    assert [s.label for s in load_catalogue(engine).snapshots] == [second[:10], "jax-v0.0.1"]


@pytest.mark.slow
def test_a_site_built_from_two_checkouts_in_different_folders_is_byte_identical(installed_db_path, tmp_path):
    """No path of the build machine reaches the output: the cases and knowledge of two checkouts, run and built.

    The clock is the one thing allowed to differ between the two runs, so their times are set alike.
    """
    import shutil

    from sqlalchemy import text

    from jax_errors.db.engine import copy_database, open_database
    from jax_errors.reproduce.case_runner import run_cases
    from jax_errors.reproduce.cases import load_cases
    from jax_errors.site_gen.build import SiteConfig, build_site

    root = Path(__file__).parent.parent
    outputs = []
    for checkout in (tmp_path / "a", tmp_path / "somewhere" / "much" / "deeper" / "b"):
        shutil.copytree(root / "cases", checkout / "cases")
        shutil.copytree(root / "knowledge", checkout / "knowledge")
        copy_database(installed_db_path, checkout / "catalogue.db")
        engine = open_database(checkout / "catalogue.db")
        [row] = run_cases(engine, load_cases(checkout / "cases", ["all_gather_reduced_not_varying"]), jobs=1).results
        assert row.status == "reproduced"
        with engine.begin() as connection:
            connection.execute(text("update reproductions set ran_at = '2026-01-01 00:00:00', duration = 1.0"))
        build_site(engine, SiteConfig(out=checkout / "_site", knowledge_dir=checkout / "knowledge",
                                      cases_dir=checkout / "cases", search=False))
        outputs.append(checkout / "_site")
    first, second = ({p.relative_to(o): p.read_bytes() for p in sorted(o.rglob("*")) if p.is_file()} for o in outputs)
    assert first.keys() == second.keys() and len(first) > 10_000
    assert [name for name in first if first[name] != second[name]] == []
    assert not any(b"/somewhere/much/deeper" in data or str(tmp_path).encode() in data for data in second.values())


def test_related_pairs_score_as_jaccard_over_a_file():
    from types import SimpleNamespace

    from jax_errors.site_gen.related import MIN_SIMILARITY, _scored_pairs

    bags = [words(text) for text in ("only accepts inputs that are varying {}", "only accepts inputs that are reduced",
                                     "", "shapes must match", "shapes must match exactly", "unrelated words here")]
    functions = ["f", "f", "f", "g", "h", "h"]
    members = [SimpleNamespace(site=SimpleNamespace(qualname=q)) for q in functions]
    expected = []
    for i in range(len(bags)):
        for j in range(i + 1, len(bags)):
            score = jaccard(bags[i], bags[j])
            if functions[i] == functions[j]:
                expected.append(((i, j), 1, score))
            elif score >= MIN_SIMILARITY:
                expected.append(((i, j), 2, score))
    assert list(_scored_pairs(members, bags)) == expected
    assert ((0, 2), 1, 0.0) in expected and ((3, 4), 2, 0.75) in expected and len(expected) == 5


def _wordings(*messages: str) -> dict[str, str]:
    """jax/_src/checks.py raising `messages[0]` from `check` and `messages[1]` from `other` (None: not raised)."""
    check, other = messages
    source = f'''
def check(x):
    if x < 0:
        raise ValueError(f"{check}, got {{x}}")
'''
    if other:
        source += f'''

def other(name):
    if not name:
        raise TypeError("{other}")
'''
    return {"jax/__init__.py": "", "jax/_src/checks.py": source}


def test_a_retired_card_names_the_class_its_check_is_raised_as_now_when_that_changed(git_repo, tmp_path):
    """jax 0.4.26 made `__dlpack_device__`'s `ValueError`s `BufferError`s: the old card says so, not just where."""
    check = '''
    def dlpack_device(x):
        if x < 0:
            raise {cls}(f"the array must be on one device, got {{x}} devices")
        if x > 9:
            raise {cls}(f"the platform is unknown for __dlpack__: {{x}}")
'''
    engine = open_database(tmp_path / "two.db")
    for number, cls in enumerate(("ValueError", "BufferError"), start=1):
        git_repo.commit({"jax/__init__.py": "", "jax/_src/array.py": check.format(cls=cls)}, f"release {number}",
                        tag=f"jax-v0.0.{number}")
    with JaxRepository(git_repo.path) as repository:
        for number in (1, 2):
            crawl_snapshot(engine, repository.snapshot(f"jax-v0.0.{number}"))
    report = build_site(engine, SiteConfig(out=tmp_path / "_site", knowledge_dir=tmp_path, cases_dir=tmp_path,
                                           search=False))
    records = [json.loads(read(report.out, entry["json"]))
               for entry in json.loads(read(report.out, "api/errors.json"))["errors"]]
    [old] = [r for r in records if r["summary"].startswith("the array") and r["history"]["lives_on"]]
    banner = re.search(r'<p class="retired".*?</p>', read(report.out, old["links"]["html"]), re.DOTALL).group(0)
    live = old["history"]["lives_on"]["id"]
    assert f'now raised as <code>BufferError</code>:\n      <a href="../errors/{live}.html">the array must' in banner


def test_a_retired_card_names_the_error_it_lives_on_as_not_a_wording_retired_since(git_repo, tmp_path):
    releases = [("the value must be positive", "a name is needed for the check"),
                ("the value must be positive here", "a name is needed for the check to run"),
                ("the value must be strictly positive here", None)]
    engine = open_database(tmp_path / "three.db")
    for number, messages in enumerate(releases, start=1):
        git_repo.commit(_wordings(*messages), f"release {number}", tag=f"jax-v0.0.{number}")
    with JaxRepository(git_repo.path) as repository:
        for number in range(1, 4):
            crawl_snapshot(engine, repository.snapshot(f"jax-v0.0.{number}"))
    report = build_site(engine, SiteConfig(out=tmp_path / "_site", knowledge_dir=tmp_path, cases_dir=tmp_path,
                                           search=False))
    records = {}
    for entry in json.loads(read(report.out, "api/errors.json"))["errors"]:
        record = json.loads(read(report.out, entry["json"]))
        records[record["summary"]] = record
    first, second, live = (records[f"{words}, got …"] for words, _ in releases)
    assert first["history"]["reworded_to"] == [{"id": second["id"], "summary": second["summary"]}]
    assert first["history"]["lives_on"] == second["history"]["lives_on"] == {"id": live["id"], "summary": live["summary"]}
    assert live["history"]["lives_on"] is None
    banner = re.search(r'<p class="retired".*?</p>', read(report.out, first["links"]["html"]), re.DOTALL).group(0)
    assert f'now raised as\n      <a href="../errors/{live["id"]}.html">' in banner and "through later rewordings or moves" in banner
    banner = re.search(r'<p class="retired".*?</p>', read(report.out, second["links"]["html"]), re.DOTALL).group(0)
    assert f'<a href="../errors/{live["id"]}.html">' in banner and "through later" not in banner
    removed = records["a name is needed for the check"]
    then = records["a name is needed for the check to run"]
    assert removed["history"]["lives_on"] is None and removed["history"]["reworded_to"][0]["id"] == then["id"]
    banner = re.search(r'<p class="retired".*?</p>', read(report.out, removed["links"]["html"]), re.DOTALL).group(0)
    assert "now raised as" not in banner and "which is no longer raised either" in banner
    assert f'<a href="../errors/{then["id"]}.html">' in banner
