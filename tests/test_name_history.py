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
from jax_errors.site_gen.records import SCHEMA_VERSION

RELEASES = ("jax-v0.1", "jax-v0.2", "jax-v0.3", "jax-v0.4")


def missing_name_messages() -> list[dict]:
    """28 messages of public issues (jax's and other projects', 2020-2025) saying a module or a name of jax is
    missing, each with what the 194 releases 0.0-0.12.1 say of it: lookup's line, each checked against the releases'
    sources (the module's file, or the name in it, in the first and last release said to have it, and not in those
    said to lack it) by a checker of its own, apart from this code."""
    data = json.loads((Path(__file__).parent / "data" / "missing_names.json").read_text())
    assert len(data) == 28 and sum(case["said"] is not None for case in data) == 24
    return data


def spaces(*releases: dict[str, Namespace]) -> list[dict[str, Namespace]]:
    return list(releases)


def known(*names: str, warns: dict[str, str | None] | None = None) -> Namespace:
    return Namespace(frozenset(names) | frozenset(warns or ()), True, warns or {})


def synthetic_history():
    """Four releases of `jax` and of modules that came and went, with a name of each kind of span."""
    return history_of(RELEASES, spaces(
        {"jax": known("jit", "tree_multimap"), "jax.old": known("f", "g")},
        {"jax": known("jit", "tree_multimap", "tree", "h", "k"), "jax.old": known("f")},
        {"jax": known("jit", "tree", "k", warns={"tree_multimap": "jax.tree_multimap is deprecated"})},
        {"jax": known("jit", "tree"), "jax.new": known("thing")},
    ))


# What the synthetic history says of each message (`synthetic_history`); the search page must say the same.
SYNTHETIC_SAID = {
    "module 'jax' has no attribute 'tree_multimap'":
        "jax.tree_multimap was a name of jax, last in jax-v0.3: releases from jax-v0.4 on lack it. "
        "Reading it warned, first in jax-v0.3: \u201cjax.tree_multimap is deprecated\u201d",
    "cannot import name 'tree' from 'jax' (/site-packages/jax/__init__.py)":
        "jax.tree is a name of jax, first in jax-v0.2: releases before it lack it.",
    "module 'jax' has no attribute 'h'":
        "jax.h was a name of jax, only in jax-v0.2: releases from jax-v0.3 on lack it, and so do those before "
        "jax-v0.2.",
    "module 'jax' has no attribute 'k'":
        "jax.k was a name of jax, first in jax-v0.2 and last in jax-v0.3: releases from jax-v0.4 on lack it, and so "
        "do those before jax-v0.2.",
    "No module named 'jax.new'": "jax.new is a module, first in jax-v0.4: releases before it lack it.",
    # a name that came with its module: the module's span, said of the name
    "cannot import name 'thing' from 'jax.new'":
        "jax.new.thing is a name of jax.new, first in jax-v0.4: releases before it lack it.",
    # one that went with its module, and one that went before it
    "module 'jax.old' has no attribute 'f'":
        "jax.old.f was a name of jax.old, last in jax-v0.2: releases from jax-v0.3 on lack it.",
    "module 'jax.old' has no attribute 'g'":
        "jax.old.g was a name of jax.old, last in jax-v0.1: releases from jax-v0.2 on lack it.",
    "No module named 'jax.old'": "jax.old was a module, last in jax-v0.2: releases from jax-v0.3 on lack it.",
    "module 'jax' has no attribute 'jit'": None,  # in every release
    "cannot import name 'other' from 'jax.new'": None,  # in none
    "'int' object has no attribute 'shape'": None,
    "No module named 'jax.new.sub'": None,  # a module the releases never had
}


def test_a_name_is_told_from_the_releases_its_module_had_it_in():
    history = synthetic_history()
    # jit was in every release: nothing to tell; a module in the first release and the newest neither
    assert {name: span.as_json() for name, span in history.names.items()} == {
        "jax.tree_multimap": [None, 2, 2, "jax.tree_multimap is deprecated"], "jax.tree": [1, None, None, None],
        "jax.h": [1, 1, None, None], "jax.k": [1, 2, None, None], "jax.old.g": [None, 0, None, None]}
    assert {m: s.as_json() for m, s in history.modules.items()} == {
        "jax.new": [3, None, None, None], "jax.old": [None, 1, None, None]}
    assert history.module_names == {"jax.new": {"thing"}, "jax.old": {"f"}}
    said = history.as_json()
    assert said == json.loads(json.dumps(said))  # plain JSON, as the stored index and api/names.json keep it
    assert {line: name_said(said, line) for line in SYNTHETIC_SAID} == SYNTHETIC_SAID


def test_no_release_is_said_to_lack_a_name_of_a_module_whose_names_are_not_all_known():
    """A star import, or a `__getattr__` of its own, may give the module the name: only a module that shows all its
    names in every release on the side it is said to lack it tells; a name whose end is among the others is left
    out."""
    star = Namespace(frozenset({"jit"}), False, {})
    history = history_of(RELEASES, spaces(
        {"jax": known("jit"), "jax.lax": known("add")},
        {"jax": star, "jax.lax": known("add", "sub")},
        {"jax": known("jit", "vmap"), "jax.lax": known("add", "sub")},
        {"jax": known("jit", "vmap"), "jax.lax": Namespace(frozenset({"add"}), False, {})},
    ))
    assert "jax.vmap" not in history.names  # the star import of jax-v0.2 may have bound it
    assert "jax.lax.sub" not in history.names  # jax-v0.4's lax may have it
    closed = history_of(RELEASES, spaces(*[{"jax": known("jit", *(["vmap"] if at >= 2 else []))} for at in range(4)]))
    assert closed.names["jax.vmap"].as_json() == [2, None, None, None]


def test_a_star_import_of_a_public_module_gives_its_names():
    def summary(names, star=(), all_=None, getattr_=None, filled=False):
        return {"bindings": {}, "all": all_, "namespace": {"names": list(names), "star": list(star),
                                                           "getattr": getattr_, "deprecated": {}, "filled": filled}}

    spaces = release_namespaces({
        "jax": summary(["jit"], star=["jax.api", "jax.tree_util"]),
        "jax.api": summary(["grad", "_private"]), "jax.tree_util": summary(["tree_map", "helper"], all_=["tree_map"]),
        "jax.experimental": summary([], star=["jax._src.hidden"]), "jax.lazy": summary([], getattr_="other"),
        "jax.lazy.sub": summary(["x"]), "jax.loop": summary(["a"], star=["jax.loop2"]),
        "jax.loop2": summary(["b"], star=["jax.loop"]), "jax.unread": None, "jax.stubs": summary([], filled=True),
    })
    submodules = {"api", "tree_util", "experimental", "lazy", "loop", "loop2", "unread", "stubs"}
    # not `helper` (tree_util's __all__ leaves it out), nor `_private`
    assert spaces["jax"] == Namespace(frozenset({"jit", "grad", "tree_map", *submodules}), True, {})
    assert not spaces["jax.experimental"].closed  # a module that is not public: its names are not known
    assert spaces["jax.lazy"] == Namespace(frozenset({"sub"}), False, {})  # its own __getattr__
    assert not spaces["jax.loop"].closed and not spaces["jax.loop2"].closed
    assert spaces["jax.unread"] == Namespace(frozenset(), False, {})
    assert not spaces["jax.stubs"].closed  # globals()[name] = ...


def test_call_summaries_tell_what_a_module_binds_when_it_runs_and_what_else_answers_for_names():
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
  old = 1
else:
  __getattr__ = _deprecation_getattr(__name__, _deprecations)
'''
    space = summarize_calls(table, "jax/__init__.py")["namespace"]
    # `old` is bound for type checkers only: reading it raises
    assert space == {"names": ["__getattr__", "_deprecation_getattr", "_deprecations", "typing"], "star": ["jax.sub"],
                     "getattr": "table", "deprecated": {
                         "old": ["jax.old was removed in jax 0.2.", True], "spelled": [None, False],
                         "warned": ["jax.warned is deprecated; use jax.new.", False]}, "filled": False}
    lazy = "from jax._src import lazy_loader as _lazy\n__getattr__, __dir__, __all__ = _lazy.attach(__name__, ['x'])\n"
    assert summarize_calls(lazy, "jax/scipy/__init__.py")["namespace"]["getattr"] == "other"
    own = "def __getattr__(name):\n  raise AttributeError(name)\n"
    assert summarize_calls(own, "jax/experimental/__init__.py")["namespace"]["getattr"] == "other"
    assert summarize_calls("x = 1\n", "jax/random.py")["namespace"] == {
        "names": ["x"], "star": [], "getattr": None, "deprecated": {}, "filled": False}
    # jax's __init__.py imports modules to load them and deletes their names; a conditional del may not run, and a
    # name bound again after its del stays. Tuples, loops, `with` and `global` bind too.
    binds = '''
from jax.interpreters import xla, ad
del xla, ad
if x:
  del jit
ad = 1
map, (unsafe_map, *rest) = safe_map, (map, 1)
for device_array in ():
  pass
with open(f) as (handle, other):
  pass
try:
  import cloudpickle
except ImportError:
  cloudpickle = None
def enable():
  global axis_index
  axis_index = 1
'''
    assert summarize_calls(binds, "jax/core.py")["namespace"]["names"] == [
        "ad", "axis_index", "cloudpickle", "device_array", "enable", "handle", "map", "other", "rest", "unsafe_map"]
    for filled in ("for f in fs:\n  globals()[f] = 1\n", "globals().update(x=1)\n",
                   "import sys\nsys.modules['jax.experimental.array_api'] = x\n",
                   "import sys as _sys\nsetattr(_sys.modules[__name__], 'x', 1)\n"):
        assert summarize_calls(filled, "jax/numpy/__init__.py")["namespace"]["filled"], filled
    assert not summarize_calls("globals()\nx = sys.modules['a']\n", "jax/numpy/__init__.py")["namespace"]["filled"]


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
                                 "jax.tree": [1, None, None, None], "jax.tree_multimap": [None, 0, None, None]},
                       "module_names": {"jax.experimental.maps": ["xmap"]}}
    index = open_index(engine)
    assert index.name_said("AttributeError: module 'jax' has no attribute 'tree'") == (
        "jax.tree is a name of jax, first in jax-v0.0.2: releases before it lack it.")
    run = CliRunner().invoke(cli, ["lookup", "--db", str(db), "--json",
                                   "ModuleNotFoundError: No module named 'jax.experimental.maps'"])
    assert run.exit_code == 0, run.output
    said = json.loads(run.output)
    assert said["releases_say"] == ("jax.experimental.maps was a module, last in jax-v0.0.1: releases from jax-v0.0.2 "
                                    "on lack it.")
    assert said["verdict"].startswith("worded as the Python interpreter")
    run = CliRunner().invoke(cli, ["lookup", "--db", str(db), "module 'jax' has no attribute 'tree_multimap'"])
    assert run.exit_code == 0, run.output
    lines = run.output.splitlines()
    # the line comes before the cards: the table's card (removed-name) and the raise of deprecation_getattr
    assert lines[0] == "jax.tree_multimap was a name of jax, last in jax-v0.0.1: releases from jax-v0.0.2 on lack it."
    assert "jax.tree_multimap was removed in jax 0.0.2" in run.output
    # the search page's record holds the same history
    assert names_record(load_catalogue(engine)) == {"schema_version": SCHEMA_VERSION, **history}


def test_explain_tells_it_from_the_database_and_from_a_built_site_s_explain_index(git_repo, tmp_path):
    from jax_errors.site_gen.build import SiteConfig, build_site

    engine, db = two_releases(git_repo, tmp_path)
    report = build_site(engine, SiteConfig(out=tmp_path / "_site", knowledge_dir=tmp_path / "none",
                                           cases_dir=tmp_path / "none", search=False))
    message = "ImportError: cannot import name 'xmap' from 'jax.experimental.maps'"
    told = ("jax.experimental.maps.xmap was a name of jax.experimental.maps, last in jax-v0.0.1: releases from "
            "jax-v0.0.2 on lack it.")
    for where in (["--db", str(db)], ["--index", str(report.out)]):
        run = CliRunner().invoke(cli, ["explain", *where, message])
        assert run.exit_code == 0, run.output
        assert run.output.splitlines()[0] == told
        assert run.output.splitlines()[1].startswith("worded as the Python interpreter")
