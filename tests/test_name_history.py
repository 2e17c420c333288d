"""What the crawled releases say of a module or a name a message says is missing (`db.name_history`,
`lookup.names`): from the modules' files and call summaries, through the CLI's lookup and the search page's record."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner
from sqlalchemy.orm import Session
from test_lookup_history import GETATTR

from jax_errors.cli import cli
from jax_errors.crawler.calls import summarize_calls
from jax_errors.crawler.crawl import crawl_snapshot
from jax_errors.crawler.repository import JaxRepository
from jax_errors.db.engine import open_database
from jax_errors.db.name_history import Namespace, history_of, name_history, public_module, release_namespaces
from jax_errors.lookup.browser import names_record
from jax_errors.lookup.build import open_index
from jax_errors.lookup.names import missing, name_said
from jax_errors.site_gen.catalogue import load_catalogue

RELEASES = ("jax-v0.1", "jax-v0.2", "jax-v0.3", "jax-v0.4")


def missing_name_messages() -> list[dict]:
    """28 messages of public issues (jax's and other projects', 2020-2025) saying a module or a name of jax is
    missing, each with what the 194 releases 0.0-0.12.1 say of it (checked against the releases' sources: the
    module's file, or the name in it, in the last release said to have it and not in the next)."""
    data = json.loads((Path(__file__).parent / "data" / "missing_names.json").read_text())
    assert len(data) == 28 and sum(case["said"] is not None for case in data) == 24
    return data


def spaces(*releases: dict[str, Namespace]) -> list[dict[str, Namespace]]:
    return list(releases)


def known(*names: str, warns: dict[str, str | None] | None = None) -> Namespace:
    return Namespace(frozenset(names) | frozenset(warns or ()), True, warns or {})


def test_a_name_is_told_from_the_releases_its_module_bound_it_in():
    history = history_of(RELEASES, spaces(
        {"jax": known("jit", "tree_multimap")},
        {"jax": known("jit", "tree_multimap", "tree")},
        {"jax": known("jit", "tree", warns={"tree_multimap": "jax.tree_multimap is deprecated"})},
        {"jax": known("jit", "tree"), "jax.new": known()},
    ))
    # jit was in every release: nothing to tell; a module in the first release and the newest neither
    assert set(history.names) == {"jax.tree_multimap", "jax.tree"}
    assert history.names["jax.tree_multimap"].as_json() == [None, 2, 2, "jax.tree_multimap is deprecated"]
    assert history.names["jax.tree"].as_json() == [1, None, None, None]
    assert {m: s.as_json() for m, s in history.modules.items()} == {"jax.new": [3, None, None, None]}
    said = history.as_json()
    assert said == json.loads(json.dumps(said))  # plain JSON, as the stored index and api/names.json keep it
    assert name_said(said, "module 'jax' has no attribute 'tree_multimap'") == (
        "jax.tree_multimap was a name of jax up to jax-v0.3: releases from jax-v0.4 on lack it. "
        "Reading it warned from jax-v0.3 on: \u201cjax.tree_multimap is deprecated\u201d")
    assert name_said(said, "cannot import name 'tree' from 'jax' (/site-packages/jax/__init__.py)") == (
        "jax.tree is a name of jax from jax-v0.2 on: releases before it lack it.")
    assert name_said(said, "No module named 'jax.new'") == (
        "jax.new is a module from jax-v0.4 on: releases before it lack it.")
    # a name of a module that came: the module's own span
    assert name_said(said, "cannot import name 'thing' from 'jax.new'") == (
        "jax.new is a module from jax-v0.4 on: releases before it lack it.")
    assert name_said(said, "module 'jax' has no attribute 'jit'") is None
    assert name_said(said, "'int' object has no attribute 'shape'") is None
    assert name_said(said, "No module named 'jax.new.sub'") is None  # a module the releases never had


def test_no_release_is_said_to_lack_a_name_of_a_module_whose_names_are_not_all_known():
    """A star import, or a `__getattr__` of its own, may give the module the name: only a module that shows all its
    names in every release on the side it is said to lack it tells."""
    star = Namespace(frozenset({"jit"}), False, {})
    history = history_of(RELEASES, spaces(
        {"jax": known("jit"), "jax.lax": known("add")},
        {"jax": star, "jax.lax": known("add", "sub")},
        {"jax": known("jit", "vmap"), "jax.lax": known("add", "sub")},
        {"jax": known("jit", "vmap"), "jax.lax": Namespace(frozenset({"add"}), False, {})},
    ))
    assert "jax.vmap" not in history.names  # the star import of jax-v0.2 may have bound it
    assert "jax.lax.sub" in history.names and history.names["jax.lax.sub"].as_json() == [1, None, None, None]
    closed = history_of(RELEASES, spaces(*[{"jax": known("jit", *(["vmap"] if at >= 2 else []))} for at in range(4)]))
    assert closed.names["jax.vmap"].as_json() == [2, None, None, None]


def test_a_star_import_of_a_public_module_gives_its_names():
    def summary(bindings, star=(), all_=None, getattr_=None, deleted=()):
        return {"bindings": dict.fromkeys(bindings, ""), "all": all_,
                "namespace": {"star": list(star), "getattr": getattr_, "deprecated": {}, "deleted": list(deleted)}}

    spaces = release_namespaces({
        "jax": summary(["jit", "xla"], star=["jax.api", "jax.tree_util"], deleted=["xla"]),
        "jax.api": summary(["grad", "_private"]), "jax.tree_util": summary(["tree_map", "helper"], all_=["tree_map"]),
        "jax.experimental": summary([], star=["jax._src.hidden"]), "jax.lazy": summary([], getattr_="other"),
        "jax.lazy.sub": summary(["x"]), "jax.loop": summary(["a"], star=["jax.loop2"]),
        "jax.loop2": summary(["b"], star=["jax.loop"]), "jax.unread": None,
    })
    submodules = {"api", "tree_util", "experimental", "lazy", "loop", "loop2", "unread"}
    # not `helper` (tree_util's __all__ leaves it out), nor `_private`, nor `xla` (deleted)
    assert spaces["jax"] == Namespace(frozenset({"jit", "grad", "tree_map", *submodules}), True, {})
    assert not spaces["jax.experimental"].closed  # a module that is not public: its names are not known
    assert spaces["jax.lazy"] == Namespace(frozenset({"sub"}), False, {})  # its own __getattr__
    assert not spaces["jax.loop"].closed and not spaces["jax.loop2"].closed
    assert spaces["jax.unread"] == Namespace(frozenset(), False, {})


def test_call_summaries_tell_how_a_module_answers_for_names_it_does_not_bind():
    table = '''
from jax._src.deprecations import deprecation_getattr as _deprecation_getattr
from .sub import *
_deprecations = {
    "old": ("jax.old was removed in jax 0.2.", None),
    "warned": ("jax.warned is deprecated; use jax.new.", _warned),
    "spelled": (f"jax.spelled is deprecated {where}", _spelled),
}
import typing
if typing.TYPE_CHECKING:
  pass
else:
  __getattr__ = _deprecation_getattr(__name__, _deprecations)
'''
    space = summarize_calls(table, "jax/__init__.py")["namespace"]
    assert space == {"star": ["jax.sub"], "getattr": "table", "deprecated": {
        "old": ["jax.old was removed in jax 0.2.", True], "spelled": [None, False],
        "warned": ["jax.warned is deprecated; use jax.new.", False]}, "deleted": []}
    lazy = "from jax._src import lazy_loader as _lazy\n__getattr__, __dir__, __all__ = _lazy.attach(__name__, ['x'])\n"
    assert summarize_calls(lazy, "jax/scipy/__init__.py")["namespace"]["getattr"] == "other"
    own = "def __getattr__(name):\n  raise AttributeError(name)\n"
    assert summarize_calls(own, "jax/experimental/__init__.py")["namespace"]["getattr"] == "other"
    assert summarize_calls("x = 1\n", "jax/random.py")["namespace"] == {"star": [], "getattr": None, "deprecated": {},
                                                                        "deleted": []}
    # jax's __init__.py imports modules to load them and deletes their names; a conditional del may not run, and a
    # name bound again after its del stays
    deletes = "from jax.interpreters import xla, ad\ndel xla, ad\nif x:\n  del jit\nad = 1\n"
    assert summarize_calls(deletes, "jax/__init__.py")["namespace"]["deleted"] == ["xla"]


def test_public_modules_are_the_files_a_user_imports():
    assert public_module("jax/experimental/maps.py") == "jax.experimental.maps"
    assert public_module("jax/experimental/__init__.py") == "jax.experimental"
    assert public_module("jax/_src/core.py") is None
    assert public_module("jax/foo-bar.py") is None
    assert public_module("jax/experimental/README.md") is None


def test_the_messages_that_say_a_module_or_a_name_is_missing():
    assert missing("module 'jax.random' has no attribute 'PRNGKeyArray'") == "jax.random.PRNGKeyArray"
    assert missing("No module named 'jax.experimental.maps'") == "jax.experimental.maps"
    assert missing("cannot import name 'xla' from 'jax.interpreters' (/x/jax/interpreters/__init__.py)") == \
        "jax.interpreters.xla"
    assert missing("cannot import name 'xla' from partially initialized module 'jax'") is None
    assert missing("type object 'Array' has no attribute 'foo'") is None


OLD_INIT = "from jax.experimental import maps\ndef tree_multimap(f, *trees):\n  return f\n"
NEW_INIT = '''
from jax._src.deprecations import deprecation_getattr as _deprecation_getattr
def tree(x):
  return x
_deprecations = {"tree_multimap": ("jax.tree_multimap was removed in jax 0.0.2; use jax.tree.map.", None)}
__getattr__ = _deprecation_getattr(__name__, _deprecations)
'''


def two_releases(git_repo, tmp_path):
    git_repo.commit({"jax/__init__.py": OLD_INIT, "jax/experimental/__init__.py": "",
                     "jax/experimental/maps.py": "def xmap(f):\n  return f\n",
                     "jax/_src/deprecations.py": GETATTR}, "v1", tag="jax-v0.0.1")
    git_repo.commit({"jax/__init__.py": NEW_INIT, "jax/experimental/maps.py": None}, "v2", tag="jax-v0.0.2")
    db = tmp_path / "names.db"
    engine = open_database(db)
    with JaxRepository(git_repo.path) as repository:
        for tag in ("jax-v0.0.1", "jax-v0.0.2"):
            crawl_snapshot(engine, repository.snapshot(tag))
    return engine, db


def test_lookup_tells_what_the_crawled_releases_say_of_a_missing_name(git_repo, tmp_path):
    engine, db = two_releases(git_repo, tmp_path)
    with Session(engine) as session:
        history = name_history(session).as_json()
    assert history == {"releases": ["jax-v0.0.1", "jax-v0.0.2"],
                       "modules": {"jax.experimental.maps": [None, 0, None, None]},
                       "names": {"jax.experimental.maps": [None, 0, None, None], "jax.maps": [None, 0, None, None],
                                 "jax.tree": [1, None, None, None], "jax.tree_multimap": [None, 0, None, None]}}
    index = open_index(engine)
    assert index.name_said("AttributeError: module 'jax' has no attribute 'tree'") == (
        "jax.tree is a name of jax from jax-v0.0.2 on: releases before it lack it.")
    run = CliRunner().invoke(cli, ["lookup", "--db", str(db), "--json",
                                   "ModuleNotFoundError: No module named 'jax.experimental.maps'"])
    assert run.exit_code == 0, run.output
    said = json.loads(run.output)
    assert said["releases_say"] == ("jax.experimental.maps was a module up to jax-v0.0.1: releases from jax-v0.0.2 on "
                                    "lack it.")
    assert said["verdict"].startswith("worded as the Python interpreter")
    run = CliRunner().invoke(cli, ["lookup", "--db", str(db), "module 'jax' has no attribute 'tree_multimap'"])
    assert run.exit_code == 0, run.output
    lines = run.output.splitlines()
    # the line comes before the cards: the table's card (removed-name) and the raise of deprecation_getattr
    assert lines[0] == "jax.tree_multimap was a name of jax up to jax-v0.0.1: releases from jax-v0.0.2 on lack it."
    assert "jax.tree_multimap was removed in jax 0.0.2" in run.output
    # the search page's record holds the same history
    record = names_record(load_catalogue(engine))
    assert record == {"schema_version": record["schema_version"], **history}


def test_explain_tells_it_from_the_database_and_from_a_built_site_s_explain_index(git_repo, tmp_path):
    from jax_errors.site_gen.build import SiteConfig, build_site

    engine, db = two_releases(git_repo, tmp_path)
    report = build_site(engine, SiteConfig(out=tmp_path / "_site", knowledge_dir=tmp_path / "none",
                                           cases_dir=tmp_path / "none", search=False))
    message = "ImportError: cannot import name 'xmap' from 'jax.experimental.maps'"
    told = "jax.experimental.maps was a module up to jax-v0.0.1: releases from jax-v0.0.2 on lack it."
    for where in (["--db", str(db)], ["--index", str(report.out)]):
        run = CliRunner().invoke(cli, ["explain", *where, message])
        assert run.exit_code == 0, run.output
        assert run.output.splitlines()[0] == told
        assert run.output.splitlines()[1].startswith("worded as the Python interpreter")
