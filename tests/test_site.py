"""The static site and its JSON export, built from real catalogues: the installed jax, and a tiny git repo."""

import json
import os
import re
import textwrap
import urllib.request
import zipfile
from pathlib import Path
from threading import Thread

import jax
import jsonschema
import pytest
from click.testing import CliRunner
from sqlalchemy import select
from sqlalchemy.orm import Session

from jax_errors.cli import cli
from jax_errors.crawler.crawl import crawl_snapshot
from jax_errors.crawler.imports import module_name
from jax_errors.crawler.repository import JaxRepository
from jax_errors.db.engine import open_database
from jax_errors.db.models import Occurrence, RaiseSite
from jax_errors.exceptions import JaxErrorsError
from jax_errors.reproduce.cases import load_cases
from jax_errors.site_gen import records
from jax_errors.site_gen.build import SiteConfig, build_site
from jax_errors.site_gen.highlight import code_block
from jax_errors.site_gen.knowledge import load_knowledge
from jax_errors.site_gen.links import github_url, slug
from jax_errors.site_gen.output import MARKER, SiteError
from jax_errors.site_gen.related import jaccard, words
from jax_errors.site_gen.serve import make_server
from jax_errors.template import Template

REPO = Path(__file__).parent.parent
SNAPSHOTS = Path(__file__).parent / "snapshots" / "site"
SEED_ID = "252d5ba9437acc7a"
SEED_TEMPLATE = "all_gather_reduced only accepts inputs that are varying. Got {x_aval.str_short(True)}"
SEED_CASE = "all_gather_reduced_not_varying"
# Where the seed card's raise stands, per jax version this project may install: lines and commit.
SEED_SITE = {"0.10.2": (2491, 2492, "990e6a0b84138346e6a38785412f36356e0e5dc3")}
SAMPLE_SIZE = 250


def read(site: Path, page: str) -> str:
    return (site / page).read_text(encoding="utf-8")


def section(html: str, name: str) -> str:
    match = re.search(rf'<section id="{name}-section"[^>]*>(.*?)</section>', html, re.DOTALL)
    assert match, f"no {name} section"
    return match.group(1)


def site_files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def site(built_site) -> Path:
    return built_site.out


@pytest.fixture(scope="module")
def seed_html(site) -> str:
    return read(site, f"errors/{SEED_ID}.html")


@pytest.fixture(scope="module")
def seed_record(site) -> dict:
    return json.loads(read(site, f"api/errors/{SEED_ID}.json"))


@pytest.fixture(scope="module")
def seed_case():
    [case] = load_cases(REPO / "cases", [SEED_CASE])
    return case


# The full catalogue ----------------------------------------------------------------------------

def test_build_covers_the_catalogue_quickly(built_site, site):
    report = built_site
    assert report.cards > 5000
    assert report.json_files == report.cards + 1
    assert report.indexed == report.cards  # only cards carry data-pagefind-body
    assert report.reproduced >= 1 and report.curated >= 1
    assert report.seconds < 60, report.summary()
    assert report.summary().startswith(f"built {site}: {report.cards} cards")
    assert len(list((site / "errors").glob("*.html"))) == report.cards
    for page in ("index.html", "search.html", "modules/index.html", "classes/index.html", "status/index.html",
                 "status/reproduced.html", "modules/jax._src.lax.parallel.html", "classes/ValueError.html",
                 "curated.html", "static/style.css", "static/search.js", "pagefind/pagefind-ui.js", "api/all.zip"):
        assert (site / page).is_file(), page


def test_seed_card_shows_every_field(seed_html, seed_case):
    line, end_line, commit = SEED_SITE[jax.__version__]
    html = seed_html
    knowledge = load_knowledge(REPO / "knowledge")[SEED_ID]
    assert "<h1 data-pagefind-meta=\"title\">all_gather_reduced only accepts inputs that are varying. Got …</h1>" in html
    message = section(html, "message")
    assert 'all_gather_reduced only accepts inputs that are varying. Got <span class="ph"' in message
    assert "{x_aval.str_short(True)}</span>" in message
    assert "<code>ValueError</code>" in message and "src-extracted" in message
    meaning = section(html, "meaning")
    assert "src-curated" in meaning and "<em>Varying → Reduced</em>" in meaning
    source = section(html, "source")
    url = f"https://github.com/jax-ml/jax/blob/{commit}/jax/_src/lax/parallel.py#L{line}-L{end_line}"
    assert f'href="{url}"' in source
    assert f'<span class="line hl" id="raise"><span class="ln">{line}</span>' in source
    assert f'<span class="line hl"><span class="ln">{end_line}</span>' in source
    assert source.count('class="line hl"') == 2
    solutions = section(html, "solutions")
    assert solutions.count("<li>") == len(knowledge.solutions) and "src-curated" in solutions
    example = section(html, "example")
    assert "src-curated" in example and "src-reproduced" in example  # fixed() verified by the harness
    assert "pcast" in example and "Before: raises" in example and "After: runs clean" in example
    when = section(html, "when")
    assert "Raised when <code>not x_aval.mat.varying</code>" in when
    assert "<code>jax._src.lax.parallel.all_gather</code>" in when and "src-reproduced" in when
    assert when.count("<li>") == len(knowledge.situations)
    reproduction = section(html, "reproduction")
    assert '<span class="status status-reproduced">reproduced</span>' in reproduction
    assert f"<td>{jax.__version__}</td>" in reproduction and SEED_CASE in reproduction
    versions = section(html, "versions")
    assert f"jax-v{jax.__version__}" in versions
    related = section(html, "related")
    assert 2 <= related.count("<li>") <= 6 and "same function" in related
    assert f'href="../api/errors/{SEED_ID}.json"' in html


def test_seed_card_record(seed_record, seed_case):
    line, end_line, commit = SEED_SITE[jax.__version__]
    record = seed_record
    assert record["id"] == SEED_ID and record["schema_version"] == records.SCHEMA_VERSION
    assert record["class"] == "ValueError" and record["template"] == SEED_TEMPLATE
    assert record["template_parts"][-1] == {"kind": "expr", "text": "x_aval.str_short(True)"}
    assert record["guard"] == {"kind": "if", "condition": "not x_aval.mat.varying"}
    assert record["affected"][0]["versions"] == [jax.__version__]
    assert record["affected"][0]["ranges"] == [
        {"type": "GIT", "repo": "https://github.com/jax-ml/jax", "events": [{"introduced": commit}]}]
    assert record["history"]["first"]["commit"] == commit and record["history"]["current"]
    assert record["history"]["last"] is None and record["history"]["retired_since"] is None
    [location] = record["locations"]
    assert location["from"]["commit"] == commit and location["until"] is None
    assert (location["path"], location["line"], location["end_line"]) == ("jax/_src/lax/parallel.py", line, end_line)
    assert location["url"].endswith(f"/blob/{commit}/jax/_src/lax/parallel.py#L{line}-L{end_line}")
    assert record["source"]["excerpt"].count("raise ValueError('all_gather_reduced only accepts") == 1
    assert record["knowledge"]["case"] == SEED_CASE
    assert record["example"]["before"] == seed_case.trigger_source
    assert record["example"]["after"] == seed_case.fixed_source
    assert record["example"]["verified_on"] == [jax.__version__]
    assert record["reproduction"]["status"] == "reproduced"
    [run] = record["reproduction"]["runs"]
    assert run["jax_version"] == jax.__version__ and run["error_id"] == SEED_ID and run["fixed_ok"]
    assert run["observed_message"].startswith("all_gather_reduced only accepts inputs that are varying. Got")
    assert record["trigger"]["from"] == "reproduced"
    assert "jax._src.lax.parallel.all_gather" in record["trigger"]["public_functions"]
    assert record["provenance"]["knowledge"] == "curated"
    assert record["provenance"]["template"] == "extracted"
    assert record["provenance"]["trigger"] == "reproduced"
    assert {s["kind"] for s in record["sources"]} == {"extracted", "curated", "reproduced"}
    assert 1 <= len(record["related"]) <= 6
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", record["modified"])


def test_uncurated_card_renders_everything_extracted(site):
    index = json.loads(read(site, "api/errors.json"))
    entry = next(e for e in index["errors"] if not e["curated"] and e["status"] == "unverified")
    html = read(site, entry["html"])
    assert "No one has written about this error yet" in html
    for name in ("message", "meaning", "source", "when", "versions", "related"):
        assert "src-extracted" in section(html, name), name
    assert 'class="line hl"' in section(html, "source")


def _reference_validator(name: str):
    schema = records.load_schema(name)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def test_json_matches_the_checked_in_schemas(site):
    """jsonschema (the reference) on the index, the seed card and a fixed sample; the build's own
    fast validator on every card."""
    error_schema, index_schema = (_reference_validator(n) for n in (records.ERROR_SCHEMA, records.INDEX_SCHEMA))
    index = json.loads(read(site, "api/errors.json"))
    index_schema.validate(index)
    cards = sorted((site / "api" / "errors").glob("*.json"))
    assert index["count"] == len(cards) == len(index["errors"])
    step = max(1, len(cards) // SAMPLE_SIZE)
    sample = set(cards[::step]) | {site / "api" / "errors" / f"{SEED_ID}.json"}
    assert len(sample) >= 200
    for path in sorted(sample):
        error_schema.validate(json.loads(path.read_text(encoding="utf-8")))
    for path in cards:
        records.validate(json.loads(path.read_text(encoding="utf-8")), records.ERROR_SCHEMA, name=path.name)


def test_json_is_written_sorted_and_indented(site):
    text = read(site, f"api/errors/{SEED_ID}.json")
    assert text == json.dumps(json.loads(text), indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def test_index_links_to_existing_pages(site):
    index = json.loads(read(site, "api/errors.json"))
    for entry in index["errors"]:
        assert (site / entry["html"]).is_file() and (site / entry["json"]).is_file()
    assert index["snapshots"][0]["label"] == f"jax-v{jax.__version__}"


def test_bulk_archive_holds_every_json_file(site):
    with zipfile.ZipFile(site / "api" / "all.zip") as archive:
        names = archive.namelist()
        assert names == sorted(names)
        assert {info.date_time for info in archive.infolist()} == {records.ZIP_EPOCH}
        assert archive.read("errors.json") == (site / "api" / "errors.json").read_bytes()
        assert archive.read(f"errors/{SEED_ID}.json") == (site / "api" / "errors" / f"{SEED_ID}.json").read_bytes()
    assert len(names) == len(list((site / "api" / "errors").glob("*.json"))) + 1


def test_same_database_gives_the_same_bytes(built_site, site_db_path, tmp_path):
    again = build_site(open_database(site_db_path), SiteConfig(
        out=tmp_path / "again", knowledge_dir=REPO / "knowledge", cases_dir=REPO / "cases"))
    first, second = site_files(built_site.out), site_files(again.out)
    assert sorted(first) == sorted(second)
    differing = [name for name in first if first[name] != second[name]]
    assert differing == []
    assert any(name.startswith("pagefind/") for name in first)


def test_index_pages(site):
    home = read(site, "index.html")
    assert "Every error JAX can raise" in home and 'action="search.html"' in home
    modules = read(site, "modules/index.html")
    assert 'href="../modules/jax._src.lax.parallel.html"' in modules
    parallel = read(site, "modules/jax._src.lax.parallel.html")
    assert f'href="../errors/{SEED_ID}.html"' in parallel
    classes = read(site, "classes/ValueError.html")
    assert f'href="../errors/{SEED_ID}.html"' in classes
    reproduced = read(site, "status/reproduced.html")
    assert f'href="../errors/{SEED_ID}.html"' in reproduced
    search = read(site, "search.html")
    assert 'src="pagefind/pagefind-ui.js"' in search and 'src="static/search.js"' in search


def test_serve_previews_the_site_on_localhost(site):
    server = make_server(site, 0)
    assert server.server_address[0] == "127.0.0.1"
    thread = Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        base = f"http://127.0.0.1:{server.server_port}/"
        with urllib.request.urlopen(base + f"errors/{SEED_ID}.html", timeout=10) as response:
            assert response.status == 200 and b"all_gather_reduced only accepts" in response.read()
        with urllib.request.urlopen(base + "pagefind/pagefind-entry.json", timeout=10) as response:
            assert json.loads(response.read())["languages"]
    finally:
        server.shutdown()
        server.server_close()


def test_serve_needs_a_built_site(tmp_path):
    with pytest.raises(JaxErrorsError, match="no built site"):
        make_server(tmp_path, 0)


# A tiny synthetic JAX: escaping, snapshots, the CLI ----------------------------------------------

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
    git_repo.commit({"jax/__init__.py": "", "jax/_src/checks.py": ESCAPE_SOURCE}, "checks", tag="jax-v0.0.1")
    engine = open_database(tmp_path / "tiny.db")
    with JaxRepository(git_repo.path) as checkout:
        crawl_snapshot(engine, checkout.snapshot("jax-v0.0.1"))
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
    record = json.loads(read(site, f"api/errors/{error_id}.json"))
    assert record["template"] == "expected <class 'int'>, got {type(x)} & not {x!r}"
    assert record["knowledge"]["title"] == "check_type wants <class 'int'>"
    assert report.indexed == 3


@pytest.mark.parametrize("name", ["card.html", "card.json", "errors.json"])
def test_generated_output_matches_snapshot(git_repo, tmp_path, name):
    """Regenerate with TESTS_GENERATE=1 after an intended change to the cards or the records."""
    report, error_id, _ = _escape_site(git_repo, tmp_path, search=False)
    generated = {
        "card.html": f"errors/{error_id}.html", "card.json": f"api/errors/{error_id}.json",
        "errors.json": "api/errors.json",
    }
    text = read(report.out, generated[name])
    expected = SNAPSHOTS / name
    if os.environ.get("TESTS_GENERATE") == "1":
        expected.parent.mkdir(parents=True, exist_ok=True)
        expected.write_text(text, encoding="utf-8")
    assert text == expected.read_text(encoding="utf-8")


def test_cards_cover_every_snapshot_and_show_the_newest(git_repo, tmp_path):
    old = git_repo.commit({"jax/__init__.py": "", "jax/_src/checks.py": ESCAPE_SOURCE}, "checks", tag="jax-v0.0.1")
    moved = "# moved down\n\n" + textwrap.dedent(ESCAPE_SOURCE).lstrip().split("def check_other")[0]
    new = git_repo.commit({"jax/_src/checks.py": moved}, "move, drop check_other", tag="jax-v0.0.2")
    engine = open_database(tmp_path / "two.db")
    with JaxRepository(git_repo.path) as checkout:
        for tag in ("jax-v0.0.1", "jax-v0.0.2"):
            crawl_snapshot(engine, checkout.snapshot(tag))
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
    assert result.output.strip().startswith(f"built {out}: 3 cards (0 curated, 0 reproduced)")
    assert (out / MARKER).is_file() and (out / "pagefind" / "pagefind-entry.json").is_file()
    again = runner.invoke(cli, ["build", "--out", str(out), "--db", str(db), "--no-search",
                                "--knowledge", str(tmp_path / "none"), "--cases", str(tmp_path / "none")])
    assert again.exit_code == 0 and not (out / "pagefind").exists()  # an earlier build is replaced whole


def test_build_refuses_a_folder_that_is_not_a_build(fresh_db, tmp_path):
    (tmp_path / "precious.txt").write_text("keep me")
    with pytest.raises(SiteError, match="refusing to replace"):
        build_site(fresh_db, SiteConfig(out=tmp_path, search=False))
    assert (tmp_path / "precious.txt").read_text() == "keep me"


def test_a_record_that_breaks_the_schema_is_an_error(seed_record):
    broken = dict(seed_record, modified="yesterday")
    with pytest.raises(records.RecordError, match="modified"):
        records.validate(broken, records.ERROR_SCHEMA, name="broken.json")
    with pytest.raises(records.RecordError):
        records.validate(dict(seed_record, surprise=1), records.ERROR_SCHEMA)


# Small parts ---------------------------------------------------------------------------------

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
