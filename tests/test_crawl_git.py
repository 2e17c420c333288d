"""Crawls of throwaway git repositories built in the test: pinned commits, moved lines, renames."""

from dataclasses import replace

import pytest
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from jax_errors.crawler import crawl as crawl_module
from jax_errors.crawler import store as store_module
from jax_errors.crawler.crawl import crawl_snapshot
from jax_errors.crawler.mine_tests import folder_tests, mine_tests
from jax_errors.crawler.repository import JaxRepository
from jax_errors.db.history import diff_snapshots
from jax_errors.db.models import Blob, Occurrence, RaiseSite, Snapshot, StaticLink
from jax_errors.db.queries import find_snapshot, site_at, snapshot_sites
from jax_errors.exceptions import NotAGitRepositoryError, SourceError, UnknownRevisionError
from jax_errors.template import literal

CORE_V1 = '''
    def check(x):
        if x.ndim != 2:
            raise ValueError(f"expected a matrix, got {x.ndim} dims")
        return x
'''
# The same function, pushed down five lines by a new helper above it.
CORE_V2 = '''
    def helper():
        """A new helper."""
        return 1


    def check(x):
        if x.ndim != 2:
            raise ValueError(f"expected a matrix, got {x.ndim} dims")
        return x
'''
OTHER = '''
    def other(y):
        raise TypeError("other %s" % y)
'''


def build_history(git_repo):
    shas = {}
    shas["v1"] = git_repo.commit(
        {"jax/_src/core.py": CORE_V1, "jax/_src/other.py": OTHER, "README.md": "not python"},
        "v1", tag="jax-v0.0.1")
    shas["v2"] = git_repo.commit({"jax/_src/core.py": CORE_V2}, "move lines", tag="jax-v0.0.2")
    shas["v3"] = git_repo.move("jax/_src/other.py", "jax/_src/renamed.py", "rename")
    shas["v4"] = git_repo.commit({"jax/_src/broken.py": "def f(:\n    raise ValueError('x')\n"}, "broken")
    return shas


def crawl(engine, repo, rev, **kwargs):
    with JaxRepository(repo.path) as repository:
        return crawl_snapshot(engine, repository.snapshot(rev), **kwargs)


def test_crawl_pins_commit_tag_and_sites(fresh_db, git_repo):
    shas = build_history(git_repo)
    report = crawl(fresh_db, git_repo, "jax-v0.0.1")
    assert (report.files, report.sites, report.parsed) == (2, 2, 2)
    with Session(fresh_db) as session:
        snapshot = find_snapshot(session, "jax-v0.0.1")
        assert snapshot.commit == shas["v1"]
        located = site_at(session, snapshot, "jax/_src/core.py", 3)
        assert located.site.template == "expected a matrix, got {x.ndim} dims"
        assert located.site.qualname == "check"
        assert located.site.guard == "x.ndim != 2"


def test_second_tag_parses_only_changed_files(fresh_db, git_repo):
    build_history(git_repo)
    crawl(fresh_db, git_repo, "jax-v0.0.1")
    report = crawl(fresh_db, git_repo, "jax-v0.0.2")
    assert (report.parsed, report.reused) == (1, 1)
    with Session(fresh_db) as session:
        assert session.scalar(select(func.count()).select_from(Blob)) == 3


def test_a_crawled_commit_is_not_crawled_again(fresh_db, git_repo):
    build_history(git_repo)
    crawl(fresh_db, git_repo, "jax-v0.0.1")
    assert crawl(fresh_db, git_repo, "jax-v0.0.1").skipped
    assert not crawl(fresh_db, git_repo, "jax-v0.0.1", force=True).skipped


def error_ids_by_path(engine, label):
    with Session(engine) as session:
        snapshot = find_snapshot(session, label)
        return {(s.path, s.site.lineno): s.error_id for s in snapshot_sites(session, snapshot)}


def test_ids_survive_moved_lines_and_renamed_files(fresh_db, git_repo):
    shas = build_history(git_repo)
    for rev in ("jax-v0.0.1", "jax-v0.0.2", shas["v3"]):
        crawl(fresh_db, git_repo, rev)
    v1 = error_ids_by_path(fresh_db, "jax-v0.0.1")
    v2 = error_ids_by_path(fresh_db, "jax-v0.0.2")
    v3 = error_ids_by_path(fresh_db, shas["v3"])
    assert v1[("jax/_src/core.py", 3)] == v2[("jax/_src/core.py", 8)]
    assert v1[("jax/_src/other.py", 2)] == v3[("jax/_src/renamed.py", 2)]
    assert len(set(v1.values())) == 2


def test_unparsable_file_is_recorded_and_the_crawl_goes_on(fresh_db, git_repo):
    shas = build_history(git_repo)
    report = crawl(fresh_db, git_repo, shas["v4"])
    assert report.sites == 2
    [failure] = report.parse_failures
    assert (failure.path, failure.lineno) == ("jax/_src/broken.py", 1)
    with Session(fresh_db) as session:
        assert find_snapshot(session, shas["v4"]).parse_failures == 1


def test_interrupted_crawl_writes_nothing(fresh_db, git_repo, monkeypatch):
    build_history(git_repo)
    crawl(fresh_db, git_repo, "jax-v0.0.1")

    def interrupt(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(crawl_module, "store_occurrences", interrupt)
    with pytest.raises(KeyboardInterrupt):
        crawl(fresh_db, git_repo, "jax-v0.0.2")
    with Session(fresh_db) as session:
        assert session.scalar(select(func.count()).select_from(Snapshot)) == 1
        assert session.scalar(select(func.count()).select_from(Blob)) == 2
        assert session.scalar(select(func.count()).select_from(Occurrence)) == 2
        assert session.scalar(select(func.count()).select_from(RaiseSite)) == 2


def test_release_tags_sort_by_version(git_repo):
    git_repo.commit({"jax/a.py": "x = 1\n"}, "a", tag="jax-v0.4.10")
    git_repo.commit({"jax/a.py": "x = 2\n"}, "b", tag="jax-v0.4.9")
    git_repo.commit({"jax/a.py": "x = 3\n"}, "c", tag="jax-v0.10.0")
    with JaxRepository(git_repo.path) as repository:
        assert repository.release_tags() == ["jax-v0.4.9", "jax-v0.4.10", "jax-v0.10.0"]


def test_has_commit_names_the_commits_a_clone_holds_and_nothing_else(git_repo, tmp_path):
    first = git_repo.commit({"jax/a.py": "x = 1\n"}, "a", tag="jax-v0.4.1")
    second = git_repo.commit({"jax/a.py": "x = 2\n"}, "b")
    bare = tmp_path / "bare.git"
    git_repo.repo.clone(bare, bare=True).close()
    with JaxRepository(git_repo.path) as repository:
        tree, blob = repository.commit(second).tree.hexsha, repository.commit(second).tree["jax"]["a.py"].hexsha
        assert repository.has_commit(first) and repository.has_commit(second)
        assert not any(repository.has_commit(name) for name in (tree, blob, "f" * 40, "jax-v0.4.1", "installed-0.12"))
        assert repository.commits_since("HEAD", {first, "e" * 40, "installed-0.12"}, limit=10) == [second]
    with JaxRepository(bare) as repository:
        assert repository.has_commit(second) and not repository.has_commit("f" * 40)


def test_bad_inputs_fail_with_one_line(tmp_path, git_repo):
    build_history(git_repo)
    with pytest.raises(NotAGitRepositoryError, match="not a git repository"):
        JaxRepository(tmp_path / "nowhere").commit("HEAD")
    (tmp_path / "plain").mkdir()
    with pytest.raises(NotAGitRepositoryError):
        JaxRepository(tmp_path / "plain").commit("HEAD")
    with pytest.raises(UnknownRevisionError, match="unknown revision 'jax-v9'"):
        JaxRepository(git_repo.path).commit("jax-v9")


def test_a_bare_clone_is_read_without_a_work_tree(fresh_db, git_repo, tmp_path):
    shas = build_history(git_repo)
    bare = tmp_path / "bare.git"
    git_repo.repo.clone(bare, bare=True).close()
    (bare / "config").unlink()  # like the fetched JAX clone: no config, so core.bare is unknown
    report = crawl(fresh_db, type("R", (), {"path": bare}), "jax-v0.0.2")
    assert (report.commit, report.sites) == (shas["v2"], 2)


def test_blobs_of_an_older_extractor_are_scanned_again(fresh_db, git_repo, monkeypatch):
    build_history(git_repo)
    monkeypatch.setattr(store_module, "EXTRACTOR_VERSION", "0")
    crawl(fresh_db, git_repo, "jax-v0.0.1")
    crawl(fresh_db, git_repo, "jax-v0.0.2")
    monkeypatch.undo()
    report = crawl(fresh_db, git_repo, "jax-v0.0.1")
    assert not report.skipped and (report.parsed, report.sites) == (2, 2)
    with Session(fresh_db) as session:
        assert set(session.scalars(select(Blob.extractor_version))) == {"0", store_module.EXTRACTOR_VERSION}
        # The other snapshot keeps every site, and is stale until its own blob is scanned again.
        assert find_snapshot(session, "jax-v0.0.2").site_count == 2
    report = crawl(fresh_db, git_repo, "jax-v0.0.2")
    assert not report.skipped and (report.parsed, report.sites) == (1, 2)
    assert crawl(fresh_db, git_repo, "jax-v0.0.1").skipped and crawl(fresh_db, git_repo, "jax-v0.0.2").skipped


def occurrences(engine) -> dict[str, list[tuple[str, int, str]]]:
    """Per snapshot label: (path, line, error id) of every occurrence."""
    with Session(engine) as session:
        rows = session.execute(
            select(Snapshot, Occurrence.path, RaiseSite.lineno, Occurrence.error_id)
            .join(Occurrence, Occurrence.snapshot_id == Snapshot.id).join(RaiseSite, RaiseSite.id == Occurrence.site_id)
        ).all()
        found: dict[str, list[tuple[str, int, str]]] = {}
        for snapshot, path, line, error_id in rows:
            found.setdefault(snapshot.label, []).append((path, line, error_id))
    return {label: sorted(rows) for label, rows in found.items()}


def mine_an_assert_on_other(engine, tmp_path, commit: str) -> None:
    tests = tmp_path / "tests"
    tests.mkdir(exist_ok=True)
    (tests / "other_test.py").write_text(
        "import unittest\n\nclass OtherTest(unittest.TestCase):\n"
        "    def test_other(self):\n        with self.assertRaisesRegex(TypeError, 'other 3'):\n            other(3)\n")
    mine_tests(engine, folder_tests(tests, commit=commit))


def static_links(engine) -> list[tuple[int, str]]:
    with Session(engine) as session:
        return sorted(session.execute(select(StaticLink.site_id, StaticLink.error_id)).tuples())


def test_an_extractor_upgrade_leaves_no_snapshot_emptier(fresh_db, git_repo, tmp_path):
    """Re-crawling one commit after an upgrade re-scans blobs other snapshots share: they keep their sites."""
    shas = build_history(git_repo)
    crawl(fresh_db, git_repo, "jax-v0.0.1")
    crawl(fresh_db, git_repo, "jax-v0.0.2")
    mine_an_assert_on_other(fresh_db, tmp_path, shas["v1"])
    before, links = occurrences(fresh_db), static_links(fresh_db)
    assert len(before["jax-v0.0.1"]) == len(before["jax-v0.0.2"]) == 2 and len(links) == 1
    with Session(fresh_db) as session, session.begin():
        session.execute(update(Blob).values(extractor_version="3"))  # as an older jax-errors left them
    report = crawl(fresh_db, git_repo, "jax-v0.0.2")
    assert (report.parsed, report.sites) == (2, 2)
    assert occurrences(fresh_db) == before and static_links(fresh_db) == links
    with Session(fresh_db) as session:
        v1, v2 = find_snapshot(session, "jax-v0.0.1"), find_snapshot(session, "jax-v0.0.2")
        assert (v1.site_count, v1.file_count) == (2, 2)
        diff = diff_snapshots(session, v1, v2)
        assert (diff.added, diff.removed, diff.reworded) == ([], [], [])
    assert not crawl(fresh_db, git_repo, "jax-v0.0.1").skipped  # its own stale blob is scanned now
    assert occurrences(fresh_db) == before and static_links(fresh_db) == links


def test_when_a_new_extractor_rewords_a_shared_site_every_snapshot_and_link_follows(fresh_db, git_repo, tmp_path,
                                                                                    monkeypatch):
    shas = build_history(git_repo)
    crawl(fresh_db, git_repo, "jax-v0.0.1")
    crawl(fresh_db, git_repo, "jax-v0.0.2")
    mine_an_assert_on_other(fresh_db, tmp_path, shas["v1"])
    [(site_id, old_id)] = static_links(fresh_db)
    extract = crawl_module.raise_sites_of

    def reworded(tree, **where):
        return [replace(site, template=site.template + literal(" (read anew)")) for site in extract(tree, **where)]

    monkeypatch.setattr(crawl_module, "raise_sites_of", reworded)
    monkeypatch.setattr(store_module, "EXTRACTOR_VERSION", "next")
    crawl(fresh_db, git_repo, "jax-v0.0.2")
    [(same_site, new_id)] = static_links(fresh_db)
    assert same_site == site_id and new_id != old_id
    after = occurrences(fresh_db)
    other = ("jax/_src/other.py", 2, new_id)
    assert other in after["jax-v0.0.1"] and other in after["jax-v0.0.2"]
    with Session(fresh_db) as session:
        assert session.get(RaiseSite, site_id).template == "other {y} (read anew)"


def test_a_repository_without_a_jax_package_is_one_clear_error(fresh_db, git_repo):
    git_repo.commit({"README.md": "no package here", "setup.py": "x = 1\n"}, "no jax/")
    with pytest.raises(SourceError, match="holds no jax/ package"):
        crawl(fresh_db, git_repo, "HEAD")
    with Session(fresh_db) as session:
        assert session.scalar(select(func.count()).select_from(Snapshot)) == 0


def test_a_lone_surrogate_in_a_message_is_stored_as_a_replacement_character(fresh_db, git_repo):
    git_repo.commit({"jax/s.py": 'def f(x):\n    raise ValueError("lone \\ud800 surrogate {}".format(x))\n'}, "surrogate")
    report = crawl(fresh_db, git_repo, "HEAD")
    assert report.sites == 1
    with Session(fresh_db) as session:
        assert session.scalar(select(RaiseSite.template)) == "lone \ufffd surrogate {x}"


def test_an_exception_message_with_a_lone_surrogate_can_be_stored():
    from jax_errors.reproduce.exception_text import message_of

    assert message_of(ValueError("bad \udc80 byte")) == "bad \ufffd byte"


def test_files_nested_past_the_stack_are_recorded_as_unreadable_and_the_crawl_goes_on(fresh_db, git_repo):
    git_repo.commit({
        "jax/nots.py": "x = " + "not " * 10000 + "y\n",
        "jax/plus.py": "def f():\n    raise ValueError(" + " + ".join(['"a"'] * 6000) + ")\n",
        "jax/fine.py": "def g():\n    raise TypeError('fine')\n",
    }, "deep")
    report = crawl(fresh_db, git_repo, "HEAD")
    assert report.sites == 1
    failures = {f.path: f.reason for f in report.parse_failures}
    assert sorted(failures) == ["jax/nots.py", "jax/plus.py"]
    assert failures["jax/plus.py"] == "too deeply nested to read"
    assert "nested" in failures["jax/nots.py"]  # the parser's own words differ between Python versions


def test_a_corrupt_git_object_is_one_clear_error_and_loses_nothing(fresh_db, git_repo):
    build_history(git_repo)
    crawl(fresh_db, git_repo, "jax-v0.0.1")
    sha = git_repo.repo.git.rev_parse("jax-v0.0.2:jax/_src/core.py")  # a blob only jax-v0.0.2 holds
    loose = git_repo.path / ".git" / "objects" / sha[:2] / sha[2:]
    loose.chmod(0o644)
    loose.write_bytes(b"not a zlib stream")
    with pytest.raises(SourceError, match=f"cannot read blob {sha[:10]} in "):
        crawl(fresh_db, git_repo, "jax-v0.0.2")
    with Session(fresh_db) as session:
        assert find_snapshot(session, "jax-v0.0.2") is None
        assert find_snapshot(session, "jax-v0.0.1").site_count == 2


def test_test_code_is_not_crawled_but_the_public_test_utilities_are(fresh_db, git_repo):
    skip = "import unittest\n\ndef skip(reason):\n    raise unittest.SkipTest(reason)\n"
    user_facing = "def check_grads(f, order):\n    if order < 1:\n        raise ValueError(f'order must be >= 1, got {order}')\n"
    git_repo.commit({
        "jax/_src/core.py": "def f(x):\n    raise TypeError(f'bad {x}')\n",
        "jax/_src/test_util.py": skip,
        "jax/_src/internal_test_util/harness.py": skip,
        "jax/experimental/jax2tf/tests/jax2tf_test.py": skip,
        "jax/experimental/mosaic/gpu/examples/matmul.py": skip,
        "jax/experimental/array_serialization/serialization_test.py": skip,
        "jax/_src/hypothesis_test_util.py": skip,
        "jax/_src/public_test_util.py": user_facing,
        "jax/example_libraries/optimizers.py": "def make(step):\n    raise TypeError(f'bad step {step}')\n",
    }, "with tests", tag="jax-v0.0.1")
    report = crawl(fresh_db, git_repo, "jax-v0.0.1")
    with Session(fresh_db) as session:
        paths = set(session.scalars(select(Occurrence.path)))
        classes = set(session.scalars(select(RaiseSite.exc_class)))
    assert paths == {"jax/_src/core.py", "jax/_src/public_test_util.py", "jax/example_libraries/optimizers.py"}
    assert report.files == 3 and "unittest.SkipTest" not in classes


def test_an_upgrade_drops_test_code_from_snapshots_placed_before(fresh_db, git_repo, monkeypatch):
    """A snapshot placed when test code still counted loses it when its blobs are scanned again."""
    from jax_errors.crawler import raise_sites, sources, store

    git_repo.commit({"jax/_src/core.py": "def f(x):\n    raise TypeError(f'bad {x}')\n",
                     "jax/_src/test_util.py": "def skip():\n    raise RuntimeError('skip')\n"}, "one", tag="jax-v0.0.1")
    git_repo.commit({"jax/_src/core.py": "def f(x):\n    raise TypeError(f'bad {x}')\n",
                     "jax/_src/test_util.py": "def skip():\n    raise RuntimeError('skip!')\n"}, "two", tag="jax-v0.0.2")
    with monkeypatch.context() as older:
        older.setattr(sources, "is_test_code", lambda path: False)
        older.setattr(store, "EXTRACTOR_VERSION", "old")
        older.setattr(raise_sites, "EXTRACTOR_VERSION", "old")
        crawl(fresh_db, git_repo, "jax-v0.0.1")
    crawl(fresh_db, git_repo, "jax-v0.0.2")
    with Session(fresh_db) as session:
        first = find_snapshot(session, "jax-v0.0.1")
        paths = set(session.scalars(select(Occurrence.path).where(Occurrence.snapshot_id == first.id)))
        assert paths == {"jax/_src/core.py"} and first.file_count == 1
