"""kill -9 of a crawl, a build and a refresh at every stage: the database stays whole, nothing half-made shows,
and running the command again completes it. Stages are named (`jax_errors.faults`); one test kills at
seeded random moments instead."""

import hashlib
import json
import random
import signal
import sqlite3
import subprocess
import time
from pathlib import Path

import pytest
from commands import CLI, environment, integrity, killed_at, ok, snapshots
from site_pages import site_files
from test_concurrency import FIRST, SECOND, THIRD, crawl, lookup, site_errors

from jax_errors.exceptions import JaxErrorsError
from jax_errors.site_gen.output import MARKER, cut_short
from jax_errors.site_gen.search_sources import SOURCES_DIR
from jax_errors.site_gen.serve import make_server

SECOND_MESSAGE = "the second release alone raises this about axis 3"


@pytest.fixture
def releases(git_repo):
    git_repo.commit(FIRST, "first", tag="jax-v0.0.1")
    git_repo.commit(SECOND, "second", tag="jax-v0.0.2")
    return git_repo.path


@pytest.mark.parametrize("stage", ["crawl:parsed", "crawl:writing", "crawl:committed"])
def test_a_crawl_killed_at_each_stage(releases, db_path, stage):
    ok(*crawl(releases, db_path, "jax-v0.0.1"))
    killed_at(stage, *crawl(releases, db_path, "jax-v0.0.2"))
    integrity(db_path)
    stored = stage == "crawl:committed"
    first = ["jax-v0.0.1 1 files 1 sites"]
    assert snapshots(db_path) == first + (["jax-v0.0.2 2 files 2 sites"] if stored else [])
    assert lookup(db_path, SECOND_MESSAGE) == ([("jax-v0.0.2", "IndexError")] if stored else [])
    again = ok(*crawl(releases, db_path, "jax-v0.0.2"))
    assert ("already crawled" in again) == stored
    assert snapshots(db_path) == first + ["jax-v0.0.2 2 files 2 sites"]
    assert lookup(db_path, SECOND_MESSAGE) == [("jax-v0.0.2", "IndexError")]
    integrity(db_path)


def many_modules(count: int) -> dict[str, str]:
    body = "".join(f"def f{i}(x):\n    if x > {i}:\n        raise ValueError(f'x is {{x}}, over {i}')\n"
                   for i in range(150))
    return {f"jax/m{n}.py": body for n in range(count)}


@pytest.mark.slow  # three crawls of 80 files, each killed, then run again
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_crawl_killed_at_a_random_moment(git_repo, tmp_path, seed):
    """Whenever the kill lands (parsing, writing, committing, or after), the snapshot is whole or absent."""
    git_repo.commit(many_modules(80), "many modules", tag="jax-v0.0.9")
    reference, db = tmp_path / "reference.db", tmp_path / "killed.db"
    started = time.monotonic()
    ok(*crawl(git_repo.path, reference, "jax-v0.0.9"))
    whole = snapshots(reference)
    delay = random.Random(seed).uniform(0, time.monotonic() - started)
    process = subprocess.Popen([*CLI, *crawl(git_repo.path, db, "jax-v0.0.9")], env=environment(),
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(delay)
    process.send_signal(signal.SIGKILL)
    process.wait()
    if db.exists():
        integrity(db)
        assert snapshots(db) in ([], whole)
    ok(*crawl(git_repo.path, db, "jax-v0.0.9"))
    assert snapshots(db) == whole
    integrity(db)


def build(db: Path, out: Path) -> list[str]:
    none = str(out.parent / "none")
    return ["build", "--out", str(out), "--no-search", "--knowledge", none, "--cases", none, "--db", str(db)]


def tree(folder: Path) -> dict[str, str]:
    """Every file of a site but its search index and what it indexes (a refresh makes them, `build` here does not).

    Of the manifest, all but what it says the search index holds.
    """
    def content(path: Path) -> bytes:
        if path.name != MARKER:
            return path.read_bytes()
        manifest = json.loads(path.read_text())
        manifest.pop("searchable", None)
        return json.dumps(manifest).encode()
    return {str(path.relative_to(folder)): hashlib.sha256(content(path)).hexdigest()
            for path in sorted(folder.rglob("*"))
            if path.is_file() and not {"pagefind", SOURCES_DIR} & set(path.parts)}


@pytest.mark.parametrize("stage", ["site:write", "site:write@7", "site:manifest"])
def test_a_build_killed_at_each_stage(releases, db_path, tmp_path, stage):
    site = tmp_path / "site"
    ok(*crawl(releases, db_path, "jax-v0.0.1"))
    ok(*build(db_path, site))
    ok(*crawl(releases, db_path, "jax-v0.0.2"))
    killed_at(stage, *build(db_path, site))
    assert cut_short(site)  # its marker says so: no manifest claims a finished site
    with pytest.raises(JaxErrorsError, match="was cut short"):
        make_server(site, 0)
    integrity(db_path)
    ok(*build(db_path, site))
    assert not cut_short(site) and json.loads((site / MARKER).read_text())["files"]
    assert site_errors(site) == ["jax/core.py ValueError", "jax/later.py IndexError"]
    ok(*build(db_path, tmp_path / "fresh"))
    assert tree(site) == tree(tmp_path / "fresh")  # the same bytes as a build from scratch



# Before Pagefind starts, and while it runs beside the build (the manifest is next; test_search_index checks
# that Pagefind dies with the build).
@pytest.mark.parametrize("stage", ["search:source", "search:index", "site:manifest"])
def test_a_build_killed_around_its_search_index(releases, db_path, tmp_path, stage):
    from jax_errors.site_gen.pagefind_bundle import indexed_pages

    searching = [argument for argument in build(db_path, tmp_path / "site") if argument != "--no-search"]
    ok(*crawl(releases, db_path, "jax-v0.0.1"))
    ok(*searching)
    ok(*crawl(releases, db_path, "jax-v0.0.2"))
    killed_at(stage, *searching)
    assert cut_short(tmp_path / "site")  # the index is made beside the other pages: no manifest, no index claimed
    assert "2 pages searchable (indexed again)" in ok(*searching)
    assert sum(indexed_pages(shard) for shard in (tmp_path / "site" / "pagefind").iterdir() if shard.is_dir()) == 2
    fresh = [argument if argument != str(tmp_path / "site") else str(tmp_path / "fresh") for argument in searching]
    ok(*fresh)
    assert site_files(tmp_path / "site") == site_files(tmp_path / "fresh")

def refresh(repo: Path, db: Path, site: Path) -> list[str]:
    return ["refresh", "--repo", str(repo), "--rev", "main", "--no-reproduce", "--jobs", "1",
            "--site", str(site), "--knowledge", str(site.parent / "none"), "--db", str(db)]


@pytest.mark.slow  # eight refreshes and builds
def test_a_refresh_killed_while_crawling_then_while_building(git_repo, db_path, tmp_path):
    site = tmp_path / "site"
    git_repo.commit(FIRST, "first")
    ok(*refresh(git_repo.path, db_path, site), cwd=tmp_path)
    git_repo.commit(SECOND, "second")
    git_repo.commit(THIRD, "third")
    # Killed while writing the second of the two new commits: the first is stored, the site untouched.
    killed_at("crawl:writing@2", *refresh(git_repo.path, db_path, site), cwd=tmp_path)
    integrity(db_path)
    assert [line.split(" ", 1)[1] for line in snapshots(db_path)] == ["1 files 1 sites", "2 files 2 sites"]
    assert not cut_short(site) and site_errors(site) == ["jax/core.py ValueError"]
    assert "crawled 1 new commits" in ok(*refresh(git_repo.path, db_path, site), cwd=tmp_path)
    assert [line.split(" ", 1)[1] for line in snapshots(db_path)][-1] == "3 files 3 sites"
    assert len(site_errors(site)) == 3
    # Killed while rewriting the site: the crawl is stored; the next refresh, with nothing new, builds the site.
    git_repo.commit({"jax/core.py": None}, "fourth")
    killed_at("site:write", *refresh(git_repo.path, db_path, site), cwd=tmp_path)
    integrity(db_path)
    assert [line.split(" ", 1)[1] for line in snapshots(db_path)][-1] == "2 files 2 sites"
    assert cut_short(site)
    again = ok(*refresh(git_repo.path, db_path, site), cwd=tmp_path)
    assert again.startswith("main: up to date") and "site:" in again
    ok(*build(db_path, tmp_path / "fresh"))
    assert tree(site) == tree(tmp_path / "fresh")


@pytest.mark.slow  # two reproduce runs, each starting a worker that imports jax
def test_a_reproduce_killed_while_recording_keeps_the_cases_it_finished(installed_db_path, tmp_path):
    from test_hostile_cases import RESHAPE, write_case

    from jax_errors.db.engine import copy_database

    db, cases = tmp_path / "catalogue.db", tmp_path / "cases"
    copy_database(installed_db_path, db)
    cases.mkdir()
    for name in ("a_first", "b_second"):
        write_case(cases, name, RESHAPE)
    args = ["reproduce", "--cases-dir", str(cases), "--jobs", "1", "--db", str(db)]
    killed_at("reproduce:recording@2", *args)
    integrity(db)

    def recorded() -> list[tuple[str, str]]:
        with sqlite3.connect(db) as connection:
            return connection.execute("SELECT case_name, status FROM reproductions ORDER BY case_name").fetchall()

    assert recorded() == [("a_first", "reproduced")]
    ok(*args)
    assert recorded() == [("a_first", "reproduced"), ("b_second", "reproduced")]
