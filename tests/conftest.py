"""Shared fixtures: real SQLite databases, throwaway git repositories, the installed jax crawled once."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import git
import pytest
from sqlalchemy import Engine

from jax_errors.crawler.crawl import crawl_snapshot
from jax_errors.crawler.installed import installed_snapshot
from jax_errors.db.engine import copy_database, open_database

# The tests never ask the real package index: `crawl` dates undated releases from it, and offline they stay so.
os.environ.setdefault("JAX_ERRORS_INDEX_URL", (Path(__file__).parent / "no-index-here").as_uri())

JAX_CLONE_ENV = "JAX_ERRORS_JAX_CLONE"
DEFAULT_JAX_CLONE = Path("/work/.mirror/jax-ml+jax/repo")
SNAPSHOTS = Path(__file__).parent / "snapshots"


@pytest.fixture
def snapshot():
    """`snapshot(name, text)`: text must equal `tests/snapshots/<name>`; TESTS_GENERATE=1 rewrites the file instead.

    Regenerate after an intended change to what the crawler, the miner or the site generator writes.
    """
    def check(name: str, text: str) -> None:
        path = SNAPSHOTS / name
        if os.environ.get("TESTS_GENERATE") == "1":
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        assert text == path.read_text(encoding="utf-8")
    return check


@pytest.fixture
def forking(monkeypatch):
    """Forking allowed whatever threads an earlier test's library left running (Playwright, say).

    The child only computes; `test_forked` checks that a process with another thread does not fork.
    """
    from jax_errors import forked

    monkeypatch.setattr(forked, "only_thread", lambda: True)


@pytest.fixture
def fresh_db() -> Engine:
    """An in-memory catalogue, migrated to head."""
    return open_database("sqlite://")


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """Where a file catalogue may be created."""
    return tmp_path / "catalogue.db"


@pytest.fixture(scope="session")
def installed_db_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A file catalogue holding the installed jax package, crawled once per test session."""
    path = tmp_path_factory.mktemp("installed") / "catalogue.db"
    crawl_snapshot(open_database(path), installed_snapshot(), jobs=2)
    return path


@pytest.fixture(scope="session")
def crawled_db(installed_db_path: Path) -> Engine:
    """An engine on the catalogue of the installed jax (treat as read-only)."""
    return open_database(installed_db_path)


class GitRepoBuilder:
    """Commits versioned folders of files into a throwaway repository."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.repo = git.Repo.init(path, initial_branch="main")
        with self.repo.config_writer() as config:
            config.set_value("user", "name", "jax-errors tests")
            config.set_value("user", "email", "tests@example.invalid")

    def commit(self, files: dict[str, str | None], message: str, *, tag: str | None = None,
               date: str | None = None) -> str:
        """Write (or, for None, delete) files, commit them, optionally tag; returns the sha."""
        for name, text in files.items():
            target = self.path / name
            if text is None:
                self.repo.index.remove([name], working_tree=True)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(textwrap.dedent(text).lstrip("\n"))
            self.repo.index.add([name])
        # A fixed date keeps commit shas the same on every run, so tests can pin them.
        if date is None:
            count = len(list(self.repo.iter_commits())) if self.repo.head.is_valid() else 0
            date = f"2026-01-{count + 1:02d}T12:00:00"
        commit = self.repo.index.commit(message, author_date=date, commit_date=date)
        if tag:
            self.repo.create_tag(tag, ref=commit)
        return commit.hexsha

    def move(self, old: str, new: str, message: str) -> str:
        (self.path / new).parent.mkdir(parents=True, exist_ok=True)
        self.repo.index.move([old, new])
        return self.commit({}, message)


@pytest.fixture
def two_errors() -> dict[str, str]:
    """Two jax modules of one raise each, for `git_repo.commit`: a ValueError with a value, a TypeError without."""
    return {
        "jax/core.py": '''
            def check(x):
                if x < 0:
                    raise ValueError(f"x must be non-negative, got {x}")
                return x
        ''',
        "jax/other.py": '''
            def other(name):
                if not name:
                    raise TypeError("a name is needed")
                return name
        ''',
    }


@pytest.fixture
def git_repo(tmp_path: Path) -> GitRepoBuilder:
    builder = GitRepoBuilder(tmp_path / "jax")
    yield builder
    builder.repo.close()


@pytest.fixture(scope="session")
def jax_clone() -> Path:
    """A real clone of jax-ml/jax, or a skip saying how to provide one."""
    path = Path(os.environ.get(JAX_CLONE_ENV, DEFAULT_JAX_CLONE))
    if not (path / "HEAD").exists() and not (path / ".git").exists():
        pytest.skip(f"no JAX clone at {path}: set {JAX_CLONE_ENV} to a clone of jax-ml/jax to run this check")
    return path


# The static site (tests/test_site.py, tests/test_site_browser.py) ----------------------------

REPO_ROOT = Path(__file__).parent.parent
SEED_CASE = "all_gather_reduced_not_varying"
PROBED_FUNCTION = "jax.lax.reshape"  # probed in the site's catalogue: its cards show the calls found


@pytest.fixture(scope="session")
def site_db_path(installed_db_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the installed catalogue with the seed card's case reproduced for real, and one function probed
    (~5 s)."""
    from jax_errors.reproduce.case_runner import run_cases
    from jax_errors.reproduce.cases import load_cases
    from jax_errors.reproduce.probe import probe_jax

    path = tmp_path_factory.mktemp("site-db") / "catalogue.db"
    copy_database(installed_db_path, path)
    run_cases(open_database(path), load_cases(REPO_ROOT / "cases", [SEED_CASE]), jobs=1)
    probe_jax(open_database(path), only=[PROBED_FUNCTION], jobs=1)
    return path


@pytest.fixture(scope="session")
def built_site(site_db_path: Path, tmp_path_factory: pytest.TempPathFactory):
    """The full site of the installed jax, with the repo's knowledge and cases, built once."""
    from jax_errors.site_gen.build import SiteConfig, build_site

    out = tmp_path_factory.mktemp("site") / "_site"
    config = SiteConfig(out=out, knowledge_dir=REPO_ROOT / "knowledge", cases_dir=REPO_ROOT / "cases")
    return build_site(open_database(site_db_path), config)
