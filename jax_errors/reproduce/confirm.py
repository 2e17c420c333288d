"""Confirm triggers: run the asserting tests of JAX's suite and record which raise site each assert caught.

The tests must be those of the commit the jax they run on was built from (its tag's), since what the
plugin records are lines of that package, mapped to the raise sites crawled at that commit. That jax
is the installed one, or another release's, in its own environment (`environments`), for a clone
that lacks the installed release's tag.
"""

from __future__ import annotations

import fnmatch
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, delete
from sqlalchemy.orm import Session

from jax_errors.crawler.installed import installed_jax_dir, read_version
from jax_errors.crawler.mine_tests import TESTS_DIR
from jax_errors.crawler.repository import JaxRepository
from jax_errors.db.models import ConfirmedTrigger, RaisesAssert, Snapshot, TriggerRun
from jax_errors.db.queries import asserts_of_commit
from jax_errors.exceptions import CommitMismatchError, NotMinedError, TriggerError
from jax_errors.progress import Progress
from jax_errors.reproduce.attribution import raise_site_of
from jax_errors.reproduce.case_runner import ensure_installed_snapshot
from jax_errors.reproduce.environments import JaxEnvironment
from jax_errors.reproduce.frames import Frame
from jax_errors.reproduce.jax_tests import (
    FILE_TIMEOUT,
    TEST_TIMEOUT,
    FileRun,
    export_files,
    missing_test_modules,
    run_files,
)
from jax_errors.snapshots import RELEASE_TAG_PREFIX, release_tag, version_key

STATUSES = ("confirmed", "mismatch", "no-site", "outside-jax")


@dataclass
class ConfirmReport:
    """What one `confirm_triggers` ran and found."""

    commit: str
    jax_version: str
    files: int = 0
    runs: Counter[str] = field(default_factory=Counter)
    tests_run: int = 0
    caught: Counter[str] = field(default_factory=Counter)
    error_ids: set[str] = field(default_factory=set)
    missing: list[str] = field(default_factory=list)  # blobs absent from the clone
    seconds: float = 0.0

    def summary(self) -> str:
        runs = ", ".join(f"{n} {status}" for status, n in sorted(self.runs.items())) or "none"
        caught = ", ".join(f"{self.caught[s]} {s}" for s in STATUSES if self.caught[s]) or "nothing"
        return (
            f"{self.commit[:10]} on jax {self.jax_version}: {self.files} test files ({runs}), "
            f"{self.tests_run} tests run; caught {sum(self.caught.values())} ({caught}); "
            f"{len(self.error_ids)} raise sites confirmed; {self.seconds:.1f} s"
        )


def confirm_git(engine: Engine, repository: JaxRepository, rev: str, *, jobs: int = 1, files: str | None = None,
                timeout: float = FILE_TIMEOUT, test_timeout: float = TEST_TIMEOUT,
                progress: Progress | None = None, environment: JaxEnvironment | None = None) -> ConfirmReport:
    """Export the tests of `rev` from git and confirm their triggers (see `confirm_triggers`).

    Raises:
        CommitMismatchError: `rev` is not the commit the jax they run on was built from.
        NotMinedError: the asserts of `rev` were not mined yet.
    """
    started = time.perf_counter()
    commit = repository.commit(rev).hexsha
    jax_dir = environment.jax_dir if environment else installed_jax_dir()
    require_commit_of(commit, jax_dir)
    with tempfile.TemporaryDirectory(prefix="jax-errors-tests-") as scratch:
        root, overlay = Path(scratch) / "suite", Path(scratch) / "overlay"
        missing = export_files(repository.files(commit, folder=TESTS_DIR, python_only=False), root)
        modules = missing_test_modules(repository.files(commit, test_code=True), jax_dir)
        missing += export_files(modules, overlay)
        report = confirm_triggers(engine, root, commit=commit, jobs=jobs, files=files, timeout=timeout,
                                  test_timeout=test_timeout, overlay=overlay if modules else None,
                                  progress=progress, environment=environment)
    report.missing = missing
    report.seconds = time.perf_counter() - started  # the export counts too
    return report


@dataclass(frozen=True)
class TestsChoice:
    """Which commit's tests `triggers confirm` runs, on which jax release, and why."""

    rev: str
    environment_version: str | None = None  # None: on the installed jax
    notice: str | None = None


def choose_tests(repository: JaxRepository, rev: str | None) -> TestsChoice:
    """The tests to confirm: `rev`'s, or by default the installed jax's tag, else the newest release the clone holds.

    Tests of another release than the installed one run in that release's environment.

    Raises:
        CommitMismatchError: `rev` is neither the installed jax's commit nor a release tag.
        TriggerError: no `rev` given, and the clone holds no release up to the installed one.
    """
    version, installed = read_version(installed_jax_dir())
    if rev is None:
        if installed and repository.has_commit(installed):
            return TestsChoice(repository.release_tag_of(installed, preferred=release_tag(version)) or installed)
        held = [t for t in repository.release_tags() if version_key(t) <= version_key(version)]
        if not held:
            raise TriggerError(f"the clone holds no release tag up to jax {version}, the installed one: "
                               f"fetch its tag ({fetch_hint(repository, version)}) or name one with --rev")
        newest = held[-1]
        return TestsChoice(newest, newest.removeprefix(RELEASE_TAG_PREFIX), notice=(
            f"the clone lacks {release_tag(version)}, the installed jax's tag "
            f"({fetch_hint(repository, version)}): confirming at {newest}, the newest release it holds, "
            f"in that release's environment"))
    commit = repository.commit(rev).hexsha
    if commit == installed:
        return TestsChoice(rev)
    tag = repository.release_tag_of(commit, preferred=rev)
    if tag is None:
        raise CommitMismatchError(commit=commit, installed=installed or "?", version=version)
    return TestsChoice(rev, tag.removeprefix(RELEASE_TAG_PREFIX))


def fetch_hint(repository: JaxRepository, version: str) -> str:
    return f"git -C {repository.path} fetch origin tag {release_tag(version)}"


def require_commit_of(commit: str, jax_dir: Path | None = None) -> None:
    """Refuse tests of another commit than the jax at `jax_dir`'s (the installed one's by default).

    Raises:
        CommitMismatchError: that jax was built from another commit: its lines would not be the tests'.
    """
    version, built_from = read_version(jax_dir or installed_jax_dir())
    if built_from != commit:
        raise CommitMismatchError(commit=commit, installed=built_from or "?", version=version)


def confirm_triggers(engine: Engine, root: Path, *, commit: str, jobs: int = 1, files: str | None = None,
                     timeout: float = FILE_TIMEOUT, test_timeout: float = TEST_TIMEOUT,
                     overlay: Path | None = None, progress: Progress | None = None,
                     environment: JaxEnvironment | None = None) -> ConfirmReport:
    """Run the asserting tests of the files mined at `commit` (found under `root`) and store what they caught.

    Files run richest in asserts first; each file's earlier run at this commit is replaced.

    Parameters:
        root: the folder holding the test files at their mined paths (`root/tests/api_test.py`).
        files: a glob on the paths (`tests/lax*_test.py`); every file with asserts when None.
        overlay: test-only modules of the package at `commit` that the installed wheel lacks.
        environment: another release's environment to run them in, with its jax crawled if missing.
    Raises:
        NotMinedError: no assert was mined at `commit`.
    """
    started = time.perf_counter()
    with Session(engine) as session:
        mined = asserts_of_commit(session, commit)
    if not mined:
        raise NotMinedError(commit)
    snapshot_id, version = ensure_installed_snapshot(engine, jobs=jobs,
                                                     package_dir=environment.jax_dir if environment else None)
    selection = select_tests(mined, files)
    report = ConfirmReport(commit, version, files=len(selection))
    by_path = defaultdict(list)
    for row in mined:
        by_path[row.path].append(row)
    if progress:
        progress(0, len(selection), "")
    runs = run_files(root, selection, jobs=jobs, timeout=timeout, test_timeout=test_timeout, overlay=overlay,
                     environment=environment)
    for done, run in enumerate(runs, 1):
        store_run(engine, commit, version, snapshot_id, run, by_path[run.path], report)
        if progress:
            progress(done, len(selection), f"{run.path} {run.status}")
    report.seconds = time.perf_counter() - started
    return report


def select_tests(mined: Sequence[RaisesAssert], pattern: str | None = None) -> dict[str, list[tuple]]:
    """Per test file (richest in asserts first), the (class, method) pairs of the tests that run its asserts."""
    tests: dict[str, set[tuple]] = defaultdict(set)
    counts: Counter[str] = Counter()
    for row in mined:
        if pattern and not fnmatch.fnmatch(row.path, pattern):
            continue
        tests[row.path].update(tuple(t) for t in row.tests)
        counts[row.path] += 1
    ordered = sorted((p for p in tests if tests[p]), key=lambda p: (-counts[p], p))
    return {path: sorted(tests[path], key=lambda t: (t[0] or "", t[1])) for path in ordered}


def store_run(engine: Engine, commit: str, version: str, snapshot_id: int, run: FileRun,
              mined: Sequence[RaisesAssert], report: ConfirmReport) -> TriggerRun:
    """Attribute one file's records and store its run (replacing the earlier one) with its triggers."""
    outcomes = run.outcomes()
    report.runs[run.status] += 1
    report.tests_run += outcomes["passed"] + outcomes["failed"]
    with Session(engine, expire_on_commit=False) as session, session.begin():
        session.execute(delete(TriggerRun).where(TriggerRun.commit == commit, TriggerRun.path == run.path))
        row = TriggerRun(
            commit=commit, path=run.path, jax_version=version, status=run.status, exit_code=run.exit_code,
            selected=run.selected, passed=outcomes["passed"], failed=outcomes["failed"],
            skipped=outcomes["skipped"], seconds=run.seconds, detail=run.detail,
            ran_at=datetime.now(UTC).replace(tzinfo=None),
        )
        session.add(row)
        snapshot = session.get_one(Snapshot, snapshot_id)
        for trigger in attribute_records(session, snapshot, run.caught(), mined):
            row.triggers.append(trigger)
            report.caught[trigger.status] += trigger.count
            if trigger.status == "confirmed" and trigger.error_id:
                report.error_ids.add(trigger.error_id)
    return row


def attribute_records(session: Session, snapshot: Snapshot, records: Sequence[dict[str, Any]],
                      mined: Sequence[RaisesAssert]) -> list[ConfirmedTrigger]:
    """One row per distinct (test, assert, jax frame) caught; repeats (parameterized cases) are counted."""
    rows: dict[tuple, ConfirmedTrigger] = {}
    for record in records:
        owner = assert_at(mined, record.get("test_path"), record.get("test_line"))
        key = (record["nodeid"], owner.id if owner else None, record.get("test_line"), record["jax_path"],
               record["jax_line"], record["exc_class"], record["matched"])
        if key in rows:
            rows[key].count += 1
            continue
        rows[key] = _trigger(session, snapshot, record, owner)
    return list(rows.values())


def _trigger(session: Session, snapshot: Snapshot, record: dict[str, Any], owner: RaisesAssert | None) -> ConfirmedTrigger:
    located = None
    if record["jax_path"] is None:
        status = "outside-jax"
    else:
        located = raise_site_of(session, snapshot, Frame(record["jax_path"], record["jax_line"], ""))
        if located is None or located.error_id is None:
            status, located = "no-site", None
        else:
            status = "confirmed" if record["matched"] else "mismatch"
    return ConfirmedTrigger(
        assert_id=owner.id if owner else None, node_id=record["nodeid"] or "", test_line=record.get("test_line"),
        status=status, matched=record["matched"], exc_class=record["exc_class"], message=record["message"],
        jax_path=record["jax_path"], jax_line=record["jax_line"], snapshot_id=snapshot.id,
        site_id=located.site.id if located else None, error_id=located.error_id if located else None, count=1,
    )


def assert_at(mined: Sequence[RaisesAssert], path: str | None, line: int | None) -> RaisesAssert | None:
    """The innermost mined assert of `path` whose statement spans `line`."""
    spanning = [m for m in mined if m.path == path and line is not None and m.lineno <= line <= m.end_lineno]
    return max(spanning, key=lambda m: (m.lineno, m.col), default=None)
