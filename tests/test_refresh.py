"""Refresh re-runs the cases whose raise site changed, on the new commit's own jax source.

The throwaway repositories here hold a tiny stand-in `jax` package, so the harness's workers
import the commit's code exactly as they would import a real JAX commit's.
"""

import textwrap

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from jax_errors.crawler.refresh import refresh
from jax_errors.crawler.repository import JaxRepository
from jax_errors.db.engine import open_database
from jax_errors.db.models import Reproduction
from jax_errors.reproduce.case_runner import run_cases
from jax_errors.reproduce.cases import load_cases
from jax_errors.reproduce.source_tree import export_tree
from jax_errors.site_gen.build import SiteConfig

PACKAGE = {
    # What the worker needs of jax: a version and a config it can read and restore.
    "jax/__init__.py": '''
        __version__ = "0.0.1"


        class Config:
            values = {}

            def update(self, name, value):
                self.values[name] = value


        config = Config()
    ''',
    "jax/version.py": '_version = "0.0.1"\n',
}
CASES = {
    "negative_check": ("ValueError", "x must be non-negative", "jax.core.check(-1)", "jax.core.check(1)", "core"),
    "empty_name": ("TypeError", "a name is needed", "jax.other.other('')", "jax.other.other('a')", "other"),
}


def write_cases(folder):
    folder.mkdir()
    for name, (exc, words, trigger, fixed, module) in CASES.items():
        (folder / f"{name}.py").write_text(textwrap.dedent(f'''\
            """A stand-in case."""
            import jax.{module}

            EXPECTED = "{exc}"
            TAGS = []
            MESSAGE_CONTAINS = "{words}"


            def trigger():
                {trigger}


            def fixed():
                {fixed}
            '''))
    return load_cases(folder)


@pytest.fixture
def setting(tmp_path, git_repo, two_errors, monkeypatch):
    monkeypatch.setenv("JAX_ERRORS_CACHE", str(tmp_path / "cache"))
    first = git_repo.commit({**PACKAGE, **two_errors}, "one")
    engine = open_database(tmp_path / "catalogue.db")
    cases = write_cases(tmp_path / "cases")
    with JaxRepository(git_repo.path) as repository:
        refresh(engine, repository, first)
        run_cases(engine, cases, tree=export_tree(repository, first))
    return engine, cases, first


def rows(engine, version):
    with Session(engine) as session:
        found = session.scalars(select(Reproduction).where(Reproduction.jax_version == version))
        return {row.case_name: (row.status, row.path, row.lineno) for row in found}


def test_cases_run_on_a_commits_own_source(setting):
    engine, _cases, first = setting
    assert rows(engine, f"0.0.1+{first[:10]}") == {
        "negative_check": ("reproduced", "jax/core.py", 3),
        "empty_name": ("reproduced", "jax/other.py", 3),
    }


def test_refresh_reruns_only_the_cases_whose_site_changed(setting, git_repo, two_errors, tmp_path):
    engine, cases, _first = setting
    moved = git_repo.commit({"jax/core.py": "# a new first line\n\n" + textwrap.dedent(two_errors["jax/core.py"]).lstrip()}, "move")
    site = SiteConfig(out=tmp_path / "site", knowledge_dir=tmp_path / "none", cases_dir=tmp_path / "cases",
                      search=False)
    with JaxRepository(git_repo.path) as repository:
        report = refresh(engine, repository, "main", cases=cases, site=site)
    assert report.affected == ["negative_check"]
    assert rows(engine, f"0.0.1+{moved[:10]}") == {"negative_check": ("reproduced", "jax/core.py", 5)}
    assert "1 cases re-run on jax 0.0.1+" in report.summary() and ": 1 reproduced" in report.summary()
    assert report.site is not None and (site.out / "index.html").is_file()


def test_a_commit_whose_jax_will_not_import_is_reported_and_nothing_is_lost(setting, git_repo, two_errors):
    engine, cases, first = setting
    broken = git_repo.commit({
        "jax/__init__.py": 'raise RuntimeError("jaxlib is version 0.0.0, but this jax requires 0.0.2")\n',
        "jax/core.py": two_errors["jax/core.py"].replace("got {x}", "but got {x}"),
    }, "needs a newer jaxlib")
    with JaxRepository(git_repo.path) as repository:
        report = refresh(engine, repository, "main", cases=cases)
    assert report.affected == ["negative_check"]
    assert report.reproduction is None
    assert report.not_run == "RuntimeError: jaxlib is version 0.0.0, but this jax requires 0.0.2"
    assert "1 cases not re-run: RuntimeError: jaxlib is version 0.0.0" in report.summary()
    assert rows(engine, f"0.0.1+{broken[:10]}") == {}
    assert len(rows(engine, f"0.0.1+{first[:10]}")) == 2


# jax's own check, as `jax/_src/lib/__init__.py` has defined it since 0.4.1 (shortened).
JAXLIB_CHECK = '''
import re

import jaxlib.version  # never reached: only the function is called


def check_jaxlib_version(jax_version: str, jaxlib_version: str,
                         minimum_jaxlib_version: str) -> tuple[int, ...]:
  def _parse_version(v: str) -> tuple[int, ...]:
    m = re.compile(r"[0-9]+(?:\\.[0-9]+)*").match(v)
    if m is None:
      raise ValueError(f"Unable to parse jaxlib version '{v}'")
    return tuple(int(x) for x in m.group(0).split('.'))

  if _parse_version(jaxlib_version) < _parse_version(minimum_jaxlib_version):
    raise RuntimeError(f'jaxlib is version {jaxlib_version}, but this version '
                       f'of jax requires version >= {minimum_jaxlib_version}.')
  return _parse_version(jaxlib_version)
'''


def test_a_jax_that_refuses_the_installed_jaxlib_says_so_before_any_worker_starts(setting, git_repo, two_errors,
                                                                                   monkeypatch):
    engine, cases, first = setting
    git_repo.commit({
        "jax/version.py": '_version = "0.0.1"\n_minimum_jaxlib_version = "99.0"\n',
        "jax/_src/lib/__init__.py": JAXLIB_CHECK,
        "jax/core.py": two_errors["jax/core.py"].replace("got {x}", "but got {x}"),
    }, "needs a newer jaxlib")
    import jax_errors.reproduce.case_runner as case_runner

    def no_worker(*args, **kwargs):
        raise AssertionError("a worker was started")
    monkeypatch.setattr(case_runner, "WorkerPool", no_worker)
    with JaxRepository(git_repo.path) as repository:
        report = refresh(engine, repository, "main", cases=cases)
    installed = case_runner._installed_jaxlib()
    assert report.affected == ["negative_check"] and report.reproduction is None
    assert report.not_run == (f"RuntimeError: jaxlib is version {installed}, but this version of jax requires "
                              "version >= 99.0.")
    assert len(rows(engine, f"0.0.1+{first[:10]}")) == 2


def test_a_tree_whose_check_accepts_the_jaxlib_or_cannot_be_read_is_left_to_the_worker(setting, git_repo):
    _engine, _cases, first = setting
    with JaxRepository(git_repo.path) as repository:
        plain = export_tree(repository, first)  # no jax/_src/lib: nothing to call
        git_repo.commit({"jax/version.py": '_version = "0.0.1"\n_minimum_jaxlib_version = "0.1"\n',
                         "jax/_src/lib/__init__.py": JAXLIB_CHECK}, "checks its jaxlib")
        checked = export_tree(repository, "main")
        git_repo.commit({"jax/version.py": '__version__ = "0.0.1"\n_minimum_jaxlib_version = "0.1"\n'},
                        "names its version as releases before 0.4.2x did")
        older = export_tree(repository, "main")
        git_repo.commit({"jax/_src/lib/__init__.py": "def check_jaxlib_version(:\n"}, "unparsable")
        broken = export_tree(repository, "main")
    assert plain.refusal("0.0.1") is None and broken.refusal("0.0.1") is None
    assert checked.refusal("0.1.5") is None
    assert checked.refusal("0.0.9") == ("RuntimeError: jaxlib is version 0.0.9, but this version of jax requires "
                                        "version >= 0.1.")
    assert checked.refusal("not a version") is None  # jax's check raised ValueError: the worker will tell
    assert older.refusal("0.0.9") == checked.refusal("0.0.9")


def test_a_tree_is_exported_once_and_reused(setting, git_repo, tmp_path):
    _engine, _cases, first = setting
    with JaxRepository(git_repo.path) as repository:
        tree = export_tree(repository, first)
        (tree.jax_dir / "marker").write_text("kept")
        again = export_tree(repository, first[:10])
    assert again == tree and (again.jax_dir / "marker").read_text() == "kept"
    assert sorted(p.name for p in tree.jax_dir.iterdir()) == ["__init__.py", "core.py", "marker", "other.py",
                                                              "version.py"]
    assert tree.version == "0.0.1"
