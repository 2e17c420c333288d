"""Mine the asserts-that-raise of JAX's test suite at one commit, and link each to raise sites statically."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import Engine, delete, insert, select
from sqlalchemy.orm import Session

from jax_errors.crawler.assert_links import Candidate, TemplateIndex
from jax_errors.crawler.asserts import MINER_VERSION, MinedAssert, extract_asserts
from jax_errors.crawler.crawl import ensure_crawled
from jax_errors.crawler.repository import JaxRepository
from jax_errors.crawler.sources import SourceFile, SourceSnapshot
from jax_errors.db.models import RaisesAssert, Snapshot, StaticLink
from jax_errors.db.queries import snapshot_sites
from jax_errors.exceptions import SourceParseError
from jax_errors.progress import Progress
from jax_errors.template import Template

TESTS_DIR = "tests"


@dataclass
class MineReport:
    """What one `mine_tests` found and linked."""

    commit: str
    files: int = 0
    asserts: int = 0
    by_kind: Counter[str] = field(default_factory=Counter)
    with_pattern: int = 0
    linked: int = 0
    links: int = 0
    snapshot: str | None = None  # the crawled snapshot the patterns were linked against
    parse_failures: list[SourceParseError] = field(default_factory=list)
    seconds: float = 0.0

    def summary(self) -> str:
        kinds = ", ".join(f"{n} {kind}" for kind, n in sorted(self.by_kind.items(), key=lambda kv: -kv[1]))
        against = f"against {self.snapshot}" if self.snapshot else "(no crawled snapshot of this commit)"
        failures = f"; {len(self.parse_failures)} files do not parse" if self.parse_failures else ""
        return (
            f"{self.commit[:10]}: {self.asserts} asserts in {self.files} test files ({kinds}); "
            f"{self.linked} of {self.with_pattern} patterns linked statically {against} "
            f"({self.links} links){failures}; {self.seconds:.1f} s"
        )


def git_tests(repository: JaxRepository, rev: str) -> SourceSnapshot:
    """The test suite's `.py` files at `rev`, read from git."""
    commit = repository.commit(rev)
    return SourceSnapshot(
        commit=commit.hexsha, origin="git", source=str(repository.path),
        files=repository.files(commit.hexsha, folder=TESTS_DIR), tag=repository.release_tag_of(commit.hexsha, preferred=rev),
    )


def folder_tests(folder: str | Path, *, commit: str) -> SourceSnapshot:
    """The `.py` files under a folder (named by paths from its parent: `tests/api_test.py`), as of `commit`."""
    root = Path(folder).resolve()
    files = []
    for path in sorted(root.rglob("*.py")):
        files.append(SourceFile.from_bytes(path.relative_to(root.parent).as_posix(), path.read_bytes()))
    return SourceSnapshot(commit=commit, origin="folder", source=str(root), files=files)


def mine_tests(
    engine: Engine, tests: SourceSnapshot, *, package: Callable[[], SourceSnapshot] | None = None,
    jobs: int = 1, progress: Progress | None = None,
) -> MineReport:
    """Extract every assert of `tests`, store them (replacing the commit's earlier mining) and link them.

    Parameters:
        tests: the test files, pinned to the commit whose raise sites the patterns are linked to.
        package: loads that commit's package snapshot, crawled first when the database lacks it.
    """
    started = time.perf_counter()
    report = MineReport(tests.commit)
    # Stored and read back in this order, so the ids line up with the asserts.
    mined = sorted(_extract_all(tests.files, report, progress), key=_order)
    snapshot_id = ensure_crawled(engine, tests.commit, package, jobs=jobs)
    with Session(engine) as session, session.begin():
        session.execute(delete(RaisesAssert).where(RaisesAssert.commit == tests.commit))
        ids = _store_asserts(session, tests.commit, mined)
        if snapshot_id is not None:
            snapshot = session.get_one(Snapshot, snapshot_id)
            report.snapshot = snapshot.label
            _store_links(session, snapshot, list(zip(ids, mined)), report)
    report.seconds = time.perf_counter() - started
    return report


def _extract_all(files: Sequence[SourceFile], report: MineReport, progress: Progress | None) -> list[MinedAssert]:
    mined: list[MinedAssert] = []
    for done, file in enumerate(files, 1):
        try:
            found = extract_asserts(file.read(), file.path)
        except SourceParseError as error:
            error.commit = report.commit
            report.parse_failures.append(error)
            found = []
        mined.extend(found)
        report.files += 1
        if progress:
            progress(done, len(files), file.path)
    report.asserts = len(mined)
    report.by_kind = Counter(m.assert_kind for m in mined)
    report.with_pattern = sum(1 for m in mined if m.pattern is not None)
    return mined


def _store_asserts(session: Session, commit: str, mined: Sequence[MinedAssert]) -> list[int]:
    rows = [assert_row(commit, m) for m in mined]
    if not rows:
        return []
    session.execute(insert(RaisesAssert), rows)
    return list(session.scalars(
        select(RaisesAssert.id).where(RaisesAssert.commit == commit)
        .order_by(RaisesAssert.path, RaisesAssert.lineno, RaisesAssert.col)
    ))


def assert_row(commit: str, mined: MinedAssert) -> dict:
    pattern = mined.pattern
    return {
        "commit": commit, "path": mined.path, "lineno": mined.lineno, "end_lineno": mined.end_lineno,
        "col": mined.col, "class_name": mined.class_name, "method": mined.method,
        "assert_kind": mined.assert_kind, "form": mined.form, "exc_expr": mined.exc_expr,
        "exc_classes": list(mined.exc_classes), "pattern_kind": mined.pattern_kind,
        "pattern": pattern.text if pattern is not None else None,
        "pattern_parts": pattern.to_json() if pattern is not None else None,
        "pattern_complete": bool(pattern is not None and pattern.complete),
        "statements": mined.statements, "tests": [list(t) for t in mined.tests], "miner_version": MINER_VERSION,
    }


def _store_links(session: Session, snapshot: Snapshot, placed: list[tuple[int, MinedAssert]],
                 report: MineReport) -> None:
    index = TemplateIndex([
        Candidate(s.site.id, s.error_id, s.site.exc_class, Template.from_json(s.site.template_parts),
                  s.path, s.site.lineno)
        for s in snapshot_sites(session, snapshot) if s.site.kind == "raise"
    ])
    rows = []
    for assert_id, mined in placed:
        links = index.link(mined)
        report.linked += bool(links)
        rows.extend(
            {"assert_id": assert_id, "snapshot_id": snapshot.id, "site_id": link.site_id,
             "error_id": link.error_id, "score": link.score, "rank": rank}
            for rank, link in enumerate(links)
        )
    report.links = len(rows)
    if rows:
        session.execute(insert(StaticLink), rows)


def _order(mined: MinedAssert) -> tuple:
    return mined.path, mined.lineno, mined.col
