"""Explaining an error where it happens: `explain()`, the excepthook, `jax-errors explain`, and where cards come from.

A tiny synthetic catalogue (three raises, one curated with a case, one with a case only) is built
into a site once; its `api/explain.json` and its database are the two sources.
"""

import json
import os
import re
import subprocess
import sys
import textwrap
import threading
from dataclasses import dataclass
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner
from conftest import GitRepoBuilder
from sqlalchemy import select
from sqlalchemy.orm import Session

from jax_errors.cli import cli
from jax_errors.crawler.crawl import crawl_snapshot
from jax_errors.crawler.repository import JaxRepository
from jax_errors.db.engine import open_database
from jax_errors.db.models import Occurrence, RaiseSite
from jax_errors.exceptions import IndexFileError, NoIndexError, SettingsFileError, UnknownCardError
from jax_errors.explainer import api, hook, source
from jax_errors.explainer.api import exception_query, explain, is_jax_exception
from jax_errors.explainer.artifact import EXPLAIN_PATH, EXPLAIN_SCHEMA, FORMAT
from jax_errors.explainer.block import html_block, text_block
from jax_errors.explainer.settings import ExplainSettings, read_settings
from jax_errors.site_gen.build import SiteConfig, build_site
from jax_errors.site_gen.records import load_schema
from jax_errors.site_gen.serve import make_server

CHECKS = '''
    def gather_varying(x, axis):
        if axis not in x.varying:
            raise ValueError(f"gather_varying only accepts inputs that vary along the mesh axis. Got {x}")
        return x


    def tiled(x):
        if x.ndim != 2:
            raise TypeError(f"tiled matmul expects a two-dimensional operand, got rank {x.ndim}")
        return x


    def axis_name(axis):
        raise NameError(f"bad axis {axis}")
'''
KNOWLEDGE = '''\
    ---
    error_id: {error_id}
    title: gather_varying needs an input that varies
    case: gather_invariant
    solutions:
      - Mark the value varying first, with `pcast(x, 'i', to='varying')` <img src=x onerror=alert(1)>.
      - Check `typeof(x).varying`.
    ---
    The gather reads an array that differs along the axis; an **invariant** one has nothing to gather.
'''
CASE = '''\
    """{summary}"""
    from jax._src.checks import {function}

    EXPECTED = "{expected}"
    TAGS = ["synthetic"]
    MESSAGE_CONTAINS = "{contains}"
    {error_id_line}


    def trigger():
        return {function}({bad})


    def fixed():
        return {function}({good})
'''
BASE_URL = "https://errors.example/jax/"
SEED_MESSAGE = "gather_varying only accepts inputs that vary along the mesh axis. Got f32[4]"
TILED_MESSAGE = "tiled matmul expects a two-dimensional operand, got rank 3"
JAX_NOTE = ("--------------------\nFor simplicity, JAX has removed its internal frames from the traceback of the "
            "following exception. Set JAX_TRACEBACK_FILTERING=off to include these.")


@dataclass(frozen=True)
class Catalogue:
    db: Path
    knowledge: Path
    cases: Path
    site: Path  # built with BASE_URL
    plain_site: Path  # built without a base URL
    ids: dict[str, str]  # function -> error id


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")


@pytest.fixture(scope="module")
def catalogue(tmp_path_factory) -> Catalogue:
    root = tmp_path_factory.mktemp("explain")
    repo = GitRepoBuilder(root / "jax")
    repo.commit({"jax/__init__.py": "", "jax/_src/checks.py": CHECKS}, "checks", tag="jax-v0.0.1")
    engine = open_database(root / "catalogue.db")
    with JaxRepository(repo.path) as repository:
        crawl_snapshot(engine, repository.snapshot("jax-v0.0.1"))
    repo.repo.close()
    with Session(engine) as session:
        ids = dict(session.execute(select(RaiseSite.qualname, Occurrence.error_id)
                                   .join(Occurrence, Occurrence.site_id == RaiseSite.id)).all())
    _write(root / "knowledge" / f"{ids['gather_varying']}.md", KNOWLEDGE.format(error_id=ids["gather_varying"]))
    _write(root / "cases" / "gather_invariant.py", CASE.format(
        summary="gather_varying on an invariant value.", function="gather_varying", expected="ValueError",
        contains="only accepts inputs that vary", error_id_line="", bad="x, 'i'", good="pcast(x, 'i'), 'i'"))
    _write(root / "cases" / "tiled_rank_three.py", CASE.format(
        summary="A rank-3 operand to the tiled matmul.", function="tiled", expected="TypeError",
        contains="two-dimensional operand", error_id_line=f'ERROR_ID = "{ids["tiled"]}"', bad="cube", good="square"))
    for out, base_url in ((root / "site", BASE_URL), (root / "plain", None)):
        build_site(engine, SiteConfig(out=out, knowledge_dir=root / "knowledge", cases_dir=root / "cases",
                                      search=False, base_url=base_url))
    return Catalogue(root / "catalogue.db", root / "knowledge", root / "cases", root / "site", root / "plain", ids)


@pytest.fixture(autouse=True)
def clean_state(monkeypatch, tmp_path):
    """No settings of the machine leak in; each test opens its sources afresh, with its own cache folder."""
    for name in ("JAX_ERRORS_EXPLAIN_INDEX", "JAX_ERRORS_DB", "JAX_ERRORS_BASE_URL"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("JAX_ERRORS_CONFIG", str(tmp_path / "no-settings.toml"))
    monkeypatch.setenv("JAX_ERRORS_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(api, "_sources", {})
    yield
    hook.uninstall()


def jax_error(kind: type[Exception], message: str) -> Exception:
    """An exception as JAX raises it under its traceback filtering: with the note it adds."""
    try:
        raise kind(message)
    except kind as error:
        error.add_note(JAX_NOTE)
        return error


# The index file a build writes ---------------------------------------------------------------

def test_the_build_writes_an_explain_index_to_its_schema_with_the_base_url(catalogue):
    record = json.loads((catalogue.site / EXPLAIN_PATH).read_text(encoding="utf-8"))
    jsonschema.validate(record, load_schema(EXPLAIN_SCHEMA))
    assert record["base_url"] == BASE_URL and record["newest"] == "jax-v0.0.1" and record["count"] == 3
    assert sorted(e["id"] for e in record["entries"]) == sorted(catalogue.ids.values())
    gather, tiled = catalogue.ids["gather_varying"], catalogue.ids["tiled"]
    assert sorted(record["cards"]) == sorted([gather, tiled])  # the third says no more than its message
    card = record["cards"][gather]
    assert card["headline"] == "gather_varying needs an input that varies"
    assert card["solutions"][1] == "Check `typeof(x).varying`."
    assert card["fix"]["after"] == "from jax._src.checks import gather_varying\n\ngather_varying(pcast(x, 'i'), 'i')"
    assert record["cards"][tiled]["headline"] is None and record["cards"][tiled]["fix"]["case"] == "tiled_rank_three"
    plain = json.loads((catalogue.plain_site / EXPLAIN_PATH).read_text(encoding="utf-8"))
    assert plain["base_url"] is None and {**plain, "base_url": BASE_URL} == record
    text = (catalogue.site / EXPLAIN_PATH).read_bytes()
    assert str(catalogue.site.parent).encode() not in text and b"\n" not in text.rstrip(b"\n")


# explain() ------------------------------------------------------------------------------------

def test_explain_reads_the_index_file_and_links_under_its_base_url(catalogue):
    gather = catalogue.ids["gather_varying"]
    [found, *_] = explain(f"ValueError: {SEED_MESSAGE}", index=str(catalogue.site))
    assert (found.error_id, found.title, found.confidence, found.how) == (
        gather, "gather_varying needs an input that varies", "high", "template")
    assert found.score >= 0.9
    assert found.solution.startswith("Mark the value varying first, with `pcast(x, 'i', to='varying')`")
    assert found.fix == "from jax._src.checks import gather_varying\n\ngather_varying(pcast(x, 'i'), 'i')"
    assert found.url == f"https://errors.example/jax/errors/{gather}.html"
    assert found.card.meaning.startswith("The gather reads an array")
    assert found.card.title == "gather_varying only accepts inputs that vary along the mesh axis. Got …"
    [same] = explain(jax_error(ValueError, SEED_MESSAGE), index=str(catalogue.site / EXPLAIN_PATH), limit=1)
    assert same == found
    [by_id] = explain(gather, index=str(catalogue.site))
    assert (by_id.error_id, by_id.score, by_id.how, by_id.url) == (gather, 1.0, "id", found.url)
    with pytest.raises(UnknownCardError, match="no card 0123456789abcdef"):
        explain("0123456789abcdef", index=str(catalogue.site))


def test_without_a_base_url_links_are_card_paths_and_one_may_be_given(catalogue, monkeypatch):
    tiled = catalogue.ids["tiled"]
    [found] = explain(f"TypeError: {TILED_MESSAGE}", index=str(catalogue.plain_site), limit=1)
    assert found.url == f"errors/{tiled}.html"
    assert (found.title, found.solution, found.card.curated) == (
        "tiled matmul expects a two-dimensional operand, got rank …", None, False)
    assert found.fix == "from jax._src.checks import tiled\n\ntiled(square)"
    monkeypatch.setenv("JAX_ERRORS_BASE_URL", "https://mirror.example/")
    [found] = explain(f"TypeError: {TILED_MESSAGE}", index=str(catalogue.site), limit=1)
    assert found.url == f"https://mirror.example/errors/{tiled}.html"  # over the index's own


def test_explain_reads_the_database_with_the_curated_folders(catalogue, monkeypatch):
    monkeypatch.chdir(catalogue.knowledge.parent)  # the folders' defaults, `knowledge` and `cases`, are found here
    gather, tiled = catalogue.ids["gather_varying"], catalogue.ids["tiled"]
    [found, *_] = explain(SEED_MESSAGE, db=str(catalogue.db))
    from_index = explain(SEED_MESSAGE, index=str(catalogue.plain_site))[0]
    assert found.error_id == gather and found.url == f"errors/{gather}.html"
    assert (found.title, found.solution, found.fix, found.score) == (
        from_index.title, from_index.solution, from_index.fix, from_index.score)
    [case_only] = explain(tiled, db=str(catalogue.db))
    assert case_only.fix == "from jax._src.checks import tiled\n\ntiled(square)" and not case_only.card.curated
    [bare] = explain(catalogue.ids["axis_name"], db=str(catalogue.db), knowledge="nowhere", cases="nowhere")
    assert (bare.title, bare.solution, bare.fix, bare.card.meaning) == ("bad axis …", None, None, None)


def test_a_missing_or_broken_source_is_a_typed_error_and_creates_nothing(catalogue, tmp_path):
    with pytest.raises(NoIndexError, match="no catalogue at"):
        explain(SEED_MESSAGE, db=str(tmp_path / "missing.db"))
    assert not (tmp_path / "missing.db").exists()
    with pytest.raises(NoIndexError, match="no explain index at"):
        explain(SEED_MESSAGE, index=str(tmp_path))
    (tmp_path / "broken.json").write_text('{"format": 1, "entries": [')
    with pytest.raises(IndexFileError, match="cannot read the explain index"):
        explain(SEED_MESSAGE, index=str(tmp_path / "broken.json"))
    (tmp_path / "other.json").write_text('{"format": 99}')
    with pytest.raises(IndexFileError, match=f"not an explain index of format {FORMAT}"):
        explain(SEED_MESSAGE, index=str(tmp_path / "other.json"))


def test_an_index_file_is_read_once_then_from_the_cache_until_it_changes(catalogue, tmp_path, monkeypatch):
    index = tmp_path / "explain.json"
    index.write_bytes((catalogue.site / EXPLAIN_PATH).read_bytes())
    first = source.load_index_file(str(index))
    assert len(list((tmp_path / "cache" / "explain").glob("*.pickle"))) == 1

    def refuse(path):
        raise AssertionError("read again")

    monkeypatch.setattr(source, "read_artifact", refuse)
    again = source.load_index_file(str(index))
    assert again.base_url == first.base_url == BASE_URL and len(again.index.entries) == 3
    index.write_bytes((catalogue.plain_site / EXPLAIN_PATH).read_bytes())
    with pytest.raises(AssertionError, match="read again"):
        source.load_index_file(str(index))


def test_an_index_given_by_url_is_fetched_once(catalogue):
    server = make_server(catalogue.site, 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{server.server_port}/{EXPLAIN_PATH}"
    try:
        [found, *_] = explain(SEED_MESSAGE, index=url)
    finally:
        server.shutdown()
        server.server_close()
    api._sources.clear()
    [again, *_] = explain(SEED_MESSAGE, index=url)  # the server is gone: read from the cache folder
    assert again == found and found.error_id == catalogue.ids["gather_varying"]


# Settings -------------------------------------------------------------------------------------

def test_settings_come_from_arguments_then_environment_then_the_settings_file(tmp_path):
    config = tmp_path / "conf" / "config.toml"
    _write(config, '''\
        [explain]
        db = "catalogues/jax.db"
        base_url = "https://file.example/"
        knowledge = "~/knowledge"
        ''')
    env = {"JAX_ERRORS_CONFIG": str(config)}
    assert read_settings(environ=env) == ExplainSettings(
        index=None, db=str(tmp_path / "conf" / "catalogues" / "jax.db"), base_url="https://file.example/",
        knowledge_dir=Path("~/knowledge").expanduser(), cases_dir=Path("cases"))
    env.update(JAX_ERRORS_DB="env.db", JAX_ERRORS_BASE_URL="https://env.example/")
    assert (read_settings(environ=env).db, read_settings(environ=env).base_url) == ("env.db", "https://env.example/")
    env["JAX_ERRORS_EXPLAIN_INDEX"] = "site/api/explain.json"  # an index wins over any database found so
    settings = read_settings(environ=env)
    assert (settings.index, settings.db) == ("site/api/explain.json", "jax_errors.db")
    given = read_settings(db="given.db", base_url="https://given.example/", environ=env)
    assert (given.index, given.db, given.base_url) == (None, "given.db", "https://given.example/")
    assert read_settings(environ={"JAX_ERRORS_CONFIG": str(tmp_path / "none.toml")}) == ExplainSettings()


def test_the_default_settings_file_is_under_the_config_folder(tmp_path):
    _write(tmp_path / "jax-errors" / "config.toml", '[explain]\nindex = "https://errors.example/api/explain.json"\n')
    assert read_settings(environ={"XDG_CONFIG_HOME": str(tmp_path)}).index == "https://errors.example/api/explain.json"


@pytest.mark.parametrize(("text", "problem"), [
    ("[explain\n", "Expected ']'"), ("explain = 3\n", "[explain] is not a table"),
    ("[explain]\ndb = 3\n", "explain.db must be a string"),
])
def test_a_bad_settings_file_is_one_error_naming_it(tmp_path, text, problem):
    (tmp_path / "config.toml").write_text(text)
    with pytest.raises(SettingsFileError, match=f"bad settings file .*config.toml: .*{re.escape(problem)}"):
        read_settings(environ={"JAX_ERRORS_CONFIG": str(tmp_path / "config.toml")})


# Which exceptions are JAX's, and what lookup reads of them ---------------------------------------

def _raised_in(path: Path, message: str) -> ValueError:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"def check(x):\n    raise ValueError({message!r})\n")
    namespace: dict = {}
    exec(compile(path.read_text(), str(path), "exec"), namespace)
    try:
        namespace["check"](1)
    except ValueError as error:
        return error
    raise AssertionError("no error")


def test_an_exception_is_jax_s_by_its_class_its_frames_or_jax_s_traceback_filtering(tmp_path):
    fake_jax = type(sys)("jax")
    fake_jax.__file__ = str(tmp_path / "site-packages" / "jax" / "__init__.py")
    modules = {"jax": fake_jax}
    inside = _raised_in(tmp_path / "site-packages" / "jax" / "_src" / "checks.py", SEED_MESSAGE)
    outside = _raised_in(tmp_path / "site-packages" / "jaxlike" / "checks.py", SEED_MESSAGE)
    assert is_jax_exception(inside, modules=modules) and not is_jax_exception(outside, modules=modules)
    assert not is_jax_exception(inside, modules={})  # no jax imported: jax raised nothing
    assert is_jax_exception(jax_error(ValueError, "x"), modules={})
    jax_class = type("TracerBoolConversionError", (TypeError,), {"__module__": "jax.errors"})
    assert is_jax_exception(jax_class("x"), modules={}) and not is_jax_exception(TypeError("x"), modules={})
    unfiltered = type("UnfilteredStackTrace", (Exception,), {"__module__": "jax._src.traceback_util"})
    chained = ValueError("x")
    chained.__cause__ = unfiltered("the whole traceback")
    assert is_jax_exception(chained, modules={})


def test_lookup_reads_an_exception_s_class_message_and_jax_frames(tmp_path):
    error = _raised_in(tmp_path / "site-packages" / "jax" / "_src" / "checks.py", SEED_MESSAGE + "\n  ")
    error.add_note(JAX_NOTE)
    query = exception_query(error)
    assert (query.message, query.exc_class, query.jax_frames) == (SEED_MESSAGE, "ValueError",
                                                                  (("jax/_src/checks.py", 2),))


# The excepthook -------------------------------------------------------------------------------

def _hooked(capsys, error: BaseException) -> str:
    sys.excepthook(type(error), error, error.__traceback__)
    return capsys.readouterr().err


def test_the_hook_prints_the_card_under_a_jax_traceback_and_nothing_else(catalogue, capsys, monkeypatch):
    monkeypatch.setattr(sys, "excepthook", sys.__excepthook__)
    hook.install(index=str(catalogue.site))
    assert sys.excepthook is hook.excepthook
    gather = catalogue.ids["gather_varying"]
    printed = _hooked(capsys, jax_error(ValueError, SEED_MESSAGE))
    traceback_end = printed.index(f"ValueError: {SEED_MESSAGE}")
    block = printed[printed.index("jax-errors: "):]
    assert traceback_end < printed.index("jax-errors: ") and printed.index(JAX_NOTE) < printed.index("jax-errors: ")
    assert block.splitlines() == [
        f"jax-errors: gather_varying needs an input that varies  [card {gather}, score 1.00, high]",
        "  Try: Mark the value varying first, with `pcast(x, 'i', to='varying')` <img src=x onerror=alert(1)>.",
        f"  See: {BASE_URL}errors/{gather}.html  (or: jax-errors explain {gather})",
    ]
    plain = ValueError(SEED_MESSAGE)  # not JAX's: the same words say nothing
    assert "jax-errors" not in _hooked(capsys, plain)
    [weak] = explain("bad axis 'i' of the mesh ('x', 'y')", index=str(catalogue.site))
    assert weak.confidence == "low"
    low = _hooked(capsys, jax_error(NameError, "bad axis 'i' of the mesh ('x', 'y')"))
    assert "NameError: bad axis" in low and "jax-errors" not in low
    hook.uninstall()
    assert sys.excepthook is sys.__excepthook__


def test_the_hook_shows_what_a_module_said_of_a_name_it_removed(git_repo, capsys, monkeypatch, tmp_path):
    """`module 'jax' has no attribute 'tree_leaves'`: of the two cards lookup gives, the hook shows the name's, which
    says what to use instead, not the card of the message's own raise."""
    from test_lookup_history import TREE_LEAVES, removed_names_catalogue

    engine = removed_names_catalogue(git_repo, tmp_path / "catalogue.db")
    build_site(engine, SiteConfig(out=tmp_path / "site", search=False, base_url=BASE_URL))
    error = jax_error(AttributeError, "module 'jax' has no attribute 'tree_leaves'")
    first, named = explain(error, index=str(tmp_path / "site"), limit=2)
    assert (first.how, named.how) == ("template", "removed-name") and TREE_LEAVES.startswith(named.title[:-1])
    monkeypatch.setattr(sys, "excepthook", sys.__excepthook__)
    hook.install(index=str(tmp_path / "site"))
    block = _hooked(capsys, error)
    assert f"[card {named.error_id}, " in block and f"[card {first.error_id}, " not in block
    hook.uninstall()


def test_the_hooks_tell_what_the_releases_say_of_a_missing_module_of_jax(git_repo, capsys, monkeypatch, tmp_path,
                                                                          shell):
    """`import jax.experimental.maps` in the user's own code: the interpreter raises, no frame of jax is in the
    traceback, and the hooks still tell when the module went; in a terminal and in IPython. An import of another
    package's module, or of a jax module every release had, adds nothing."""
    from test_name_history import two_releases

    engine, _ = two_releases(git_repo, tmp_path)
    build_site(engine, SiteConfig(out=tmp_path / "site", search=False, base_url=BASE_URL))
    told = "jax-errors: jax.experimental.maps was a module, last in jax-v0.0.1: releases from jax-v0.0.2 on lack it."
    monkeypatch.setattr(sys, "excepthook", sys.__excepthook__)
    hook.install(index=str(tmp_path / "site"))
    try:
        import jax.experimental.maps  # noqa: F401  (gone from the installed jax)
    except ModuleNotFoundError as raised:
        error = raised
    printed = _hooked(capsys, error)
    assert printed.splitlines()[-1] == told and printed.index("ModuleNotFoundError") < printed.index(told)
    import jax_errors

    assert jax_errors.releases_say(error, index=str(tmp_path / "site")) == told.removeprefix("jax-errors: ")
    named = _hooked(capsys, AttributeError("module 'jax' has no attribute 'tree_multimap'"))
    assert "jax-errors: jax.tree_multimap was a name of jax, last in jax-v0.0.1" in named
    for other in (ModuleNotFoundError("No module named 'numpyx'"), ModuleNotFoundError("No module named 'jax.lax'"),
                  ValueError("No module named 'jax.experimental.maps'")):
        assert "jax-errors" not in _hooked(capsys, other)
    hook.uninstall()
    monkeypatch.setenv("JAX_ERRORS_EXPLAIN_INDEX", str(tmp_path / "site"))
    shell.run_line_magic("load_ext", "jax_errors")
    shell.run_cell("from jax.experimental import maps")
    shown = re.sub(r"\x1b\[[0-9;]*m", "", capsys.readouterr().out)
    assert shown.index("ImportError") < shown.index(told.replace(".maps was a module", ".maps was a name of "
                                                                 "jax.experimental"))
    shell.run_line_magic("unload_ext", "jax_errors")


def test_the_hook_adds_nothing_when_jax_errors_fails(catalogue, capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "excepthook", sys.__excepthook__)
    (tmp_path / "broken.json").write_text("not json")
    hook.install(index=str(tmp_path / "broken.json"))
    error = jax_error(ValueError, SEED_MESSAGE)
    printed = _hooked(capsys, error)
    sys.__excepthook__(type(error), error, error.__traceback__)
    assert printed == capsys.readouterr().err and "jax-errors" not in printed
    hook.install(index=str(catalogue.site))
    monkeypatch.setattr("jax_errors.explainer.block.text_block", lambda found: 1 / 0)
    assert "jax-errors" not in _hooked(capsys, error)


def test_importing_and_installing_load_nothing_heavy():
    script = ("import sys, jax_errors; jax_errors.install(); "
              "print(sorted({m.split('.')[0] for m in sys.modules} & {'sqlalchemy', 'jax', 'rich', 'IPython', "
              "'rapidfuzz', 'yaml', 'markdown_it'}), sorted(m for m in sys.modules if m.startswith('jax_errors.')))")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert result.stdout.split("\n")[0] == "[] ['jax_errors.explainer', 'jax_errors.explainer.hook']"


# The block and the terminal -------------------------------------------------------------------

def test_the_notebook_block_escapes_curated_text_and_collapses_the_fix(catalogue):
    [found, *_] = explain(SEED_MESSAGE, index=str(catalogue.site))
    block = html_block(found)
    assert f'data-error-id="{found.error_id}"' in block and f'href="{found.url}"' in block
    assert "<code>pcast(x, 'i', to='varying')</code> &lt;img src=x onerror=alert(1)&gt;" in block
    assert "<img" not in block
    assert "<details><summary>Example fix (case <code>gather_invariant</code>)</summary>" in block
    assert "gather_varying(pcast(x, &#x27;i&#x27;), &#x27;i&#x27;)</pre></details>" in block
    assert len(text_block(found).splitlines()) == 3


def test_explain_command_shows_the_whole_card(catalogue):
    gather = catalogue.ids["gather_varying"]
    result = CliRunner().invoke(cli, ["explain", gather, "--index", str(catalogue.site)], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    out = result.output
    for text in (f"ValueError {gather}", "gather_varying needs an input that varies",
                 "gather_varying only accepts inputs that vary along the mesh axis. Got {x}",
                 "raised at jax/_src/checks.py:3 (jax-v0.0.1)", "What it means", "an invariant one has nothing",
                 "Solutions", "1 Mark the value varying first", "2 Check typeof(x).varying.",
                 "Example fix (case gather_invariant)", "Before: raises", "gather_varying(x, 'i')", "After: runs",
                 "gather_varying(pcast(x, 'i'), 'i')", f"{BASE_URL}errors/{gather}.html"):
        assert text in out, text
    assert out.index("What it means") < out.index("Solutions") < out.index("Example fix") < out.index(BASE_URL)


def test_explain_command_reads_a_message_a_traceback_and_says_when_nothing_matches(catalogue, monkeypatch):
    monkeypatch.chdir(catalogue.knowledge.parent)
    runner = CliRunner()
    tiled = catalogue.ids["tiled"]
    traceback_text = ('Traceback (most recent call last):\n  File "/venv/site-packages/jax/_src/checks.py", line 9, '
                      f"in tiled\nTypeError: {TILED_MESSAGE}\n")
    result = runner.invoke(cli, ["explain", "--db", str(catalogue.db)], input=traceback_text, env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert f"TypeError {tiled}" in result.output
    assert "matched by template, score 1.00 (high confidence)" in result.output
    assert "No one has written about this error yet" in result.output and "tiled(square)" in result.output
    assert f"errors/{tiled}.html" in result.output
    result = runner.invoke(cli, ["explain", "--db", str(catalogue.db), "nothing like any message of jax"])
    assert (result.exit_code, result.output) == (0, "no card matches this message\n")
    result = runner.invoke(cli, ["explain", "--db", "missing.db", "x"])
    assert result.exit_code == 1 and result.output.startswith("Error: no index to explain errors with: no catalogue")
    assert not Path("missing.db").exists()
    result = runner.invoke(cli, ["explain", "--db", str(catalogue.db)], input="")
    assert result.exit_code == 2 and "give an error id or a MESSAGE" in result.output


@pytest.mark.parametrize("name", ["JAX_ERRORS_EXPLAIN_INDEX", "JAX_ERRORS_DB"])
def test_explain_command_takes_its_source_from_the_environment(catalogue, monkeypatch, name):
    monkeypatch.setenv(name, str(catalogue.site if name.endswith("INDEX") else catalogue.db))
    result = CliRunner().invoke(cli, ["explain", catalogue.ids["tiled"]], env={name: os.environ[name]})
    assert result.exit_code == 0 and f"TypeError {catalogue.ids['tiled']}" in result.output


# IPython, in process (tests/test_explain_notebook.py runs a real Jupyter kernel) ------------------

@pytest.fixture
def shell():
    from IPython.core.interactiveshell import InteractiveShell

    shell = InteractiveShell.instance()
    yield shell
    shell.history_manager.end_session()
    shell.history_manager.save_thread.stop()  # a thread left running would keep later tests from forking
    InteractiveShell.clear_instance()


def test_the_ipython_extension_loads_once_and_unloads_to_what_was_there(catalogue, shell, capsys, monkeypatch):
    monkeypatch.setenv("JAX_ERRORS_EXPLAIN_INDEX", str(catalogue.site))
    shell.user_ns["jax_error"] = jax_error
    shell.set_custom_exc((KeyError,), lambda self, kind, error, tb, tb_offset=None: print("the KeyError handler"))
    previous = shell.CustomTB
    shell.run_line_magic("load_ext", "jax_errors")
    shell.run_line_magic("load_ext", "jax_errors")  # twice: changes nothing
    assert shell.custom_exceptions == (Exception,)
    shell.run_cell(f"raise jax_error(ValueError, {SEED_MESSAGE!r})")
    shown = re.sub(r"\x1b\[[0-9;]*m", "", capsys.readouterr().out)  # IPython's colours
    gather = catalogue.ids["gather_varying"]
    assert shown.index(f"ValueError: {SEED_MESSAGE}") < shown.index(f"jax-errors: gather_varying needs an input "
                                                                     f"that varies  [card {gather}, score 1.00, high]")
    shell.run_cell("{}['missing']")  # the handler that was there still gets its exceptions
    assert capsys.readouterr().out == "the KeyError handler\n"
    shell.run_line_magic("unload_ext", "jax_errors")
    assert (shell.custom_exceptions, shell.CustomTB) == ((KeyError,), previous)
    shell.run_cell(f"raise jax_error(ValueError, {SEED_MESSAGE!r})")
    assert "jax-errors" not in capsys.readouterr().out


def test_install_in_ipython_loads_the_extension(catalogue, shell, monkeypatch):
    monkeypatch.setattr(sys, "excepthook", sys.__excepthook__)
    hook.install(index=str(catalogue.site))
    assert shell.custom_exceptions == (Exception,)
    hook.uninstall()
    assert shell.custom_exceptions == () and sys.excepthook is sys.__excepthook__


@pytest.mark.slow
def test_a_script_s_jax_error_gets_its_card_under_the_traceback(site_db_path, tmp_path):
    """A real jit tracer error, uncaught in a script that called `jax_errors.install()` (jax imported, ~3 s)."""
    from conftest import REPO_ROOT

    script = tmp_path / "relu.py"
    _write(script, '''\
        import jax_errors

        jax_errors.install()
        import jax
        import jax.numpy as jnp


        @jax.jit
        def relu(x):
            if x > 0:
                return x
            return 0.0 * x


        relu(jnp.float32(1.5))
        ''')
    env = {**os.environ, "JAX_ERRORS_DB": str(site_db_path), "JAX_PLATFORMS": "cpu",
           "JAX_ERRORS_CONFIG": str(tmp_path / "none.toml"), "JAX_ERRORS_CACHE": str(tmp_path / "cache")}
    env.pop("JAX_ERRORS_EXPLAIN_INDEX", None)
    result = subprocess.run([sys.executable, str(script)], cwd=REPO_ROOT, env=env, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 1
    err = result.stderr
    assert err.index("Traceback (most recent call last)") < err.index(
        "jax.errors.TracerBoolConversionError: Attempted boolean conversion of traced array") < err.index(
        "For simplicity, JAX has removed its internal frames") < err.index("jax-errors: ")
    lines = err.splitlines()
    assert lines[-4] == "For simplicity, JAX has removed its internal frames from the traceback of the following " \
                        "exception. Set JAX_TRACEBACK_FILTERING=off to include these."
    assert re.fullmatch(r"jax-errors: Python bool\(\) of a traced value \(if/while/and/or on a tracer\)  "
                        r"\[card 27cc8dc922f17076, score 0\.\d\d, (medium|high)\]", lines[-3])
    assert lines[-2].startswith("  Try: ") and lines[-1] == (
        "  See: errors/27cc8dc922f17076.html  (or: jax-errors explain 27cc8dc922f17076)")


@pytest.mark.slow
def test_the_whole_catalogue_s_index_file_explains_the_seed_error(built_site):
    """The site of the installed jax (built once for the site tests): its explain.json, read as users read it."""
    path = built_site.out / EXPLAIN_PATH
    record = json.loads(path.read_text(encoding="utf-8"))
    jsonschema.validate(record, load_schema(EXPLAIN_SCHEMA))
    assert record["count"] == built_site.cards and len(record["cards"]) >= built_site.curated
    [found, *_] = explain("ValueError: all_gather_reduced only accepts inputs that are varying. Got f32[4]",
                          index=str(built_site.out))
    assert (found.error_id, found.title, found.score, found.url) == (
        "252d5ba9437acc7a", "all_gather_reduced needs an input that is varying", 1.0, "errors/252d5ba9437acc7a.html")
    assert found.fix.startswith("import jax\n") and "jax.lax.pcast(x, \"x\", to=\"varying\")" in found.fix
