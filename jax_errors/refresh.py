"""Keep the catalogue current: crawl the commits a branch gained since the last refresh."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from jax_errors.crawler.checkout import JaxCheckout
from jax_errors.crawler.crawl import CrawlReport, Progress, crawl_snapshot
from jax_errors.db.models import Snapshot
from jax_errors.history import SnapshotDiff, diff_snapshots, label, ordered_snapshots

DEFAULT_LIMIT = 100


@dataclass
class RefreshReport:
    rev: str
    crawls: list[CrawlReport] = field(default_factory=list)
    diff: SnapshotDiff | None = None
    seconds: float = 0.0

    @property
    def parsed(self) -> int:
        return sum(c.parsed for c in self.crawls)

    def changed_error_ids(self) -> set[str]:
        """Ids whose raise sites came, went or were reworded: what cases and pages depend on."""
        if self.diff is None:
            return set()
        ids = {i.error_id for i in self.diff.added + self.diff.removed}
        ids |= {i.error_id for pair in self.diff.reworded for i in pair}
        return ids

    def summary(self) -> str:
        if not self.crawls:
            return f"{self.rev}: up to date"
        head = f"{self.rev}: crawled {len(self.crawls)} new commits, parsed {self.parsed} changed blobs"
        if self.diff is None:
            return f"{head}; first snapshot, nothing to compare"
        d = self.diff
        return (f"{head}; {label(d.old)} -> {label(d.new)}: {len(d.added)} added, "
                f"{len(d.removed)} removed, {len(d.reworded)} reworded errors; {self.seconds:.1f} s")


def refresh(
    engine: Engine, checkout: JaxCheckout, rev: str = "HEAD", *, limit: int = DEFAULT_LIMIT,
    jobs: int = 1, progress: Progress | None = None,
) -> RefreshReport:
    """Crawl the commits of `rev` not yet crawled, each in its own transaction, and diff them.

    The diff compares the newest snapshot crawled before (on this branch if it has one) with `rev`.
    """
    started = time.perf_counter()
    report = RefreshReport(rev)
    with Session(engine) as session:
        crawled = set(session.scalars(select(Snapshot.commit)))
        before = ordered_snapshots(session)
    todo = checkout.commits_since(rev, crawled, limit=limit)
    for commit in todo:
        report.crawls.append(crawl_snapshot(engine, checkout.snapshot(commit), jobs=jobs, progress=progress))
    if todo and before:
        with Session(engine) as session:
            new = session.scalar(select(Snapshot).where(Snapshot.commit == todo[-1]))
            old = _base_of(session, checkout, todo[0], before)
            report.diff = diff_snapshots(session, old, new)
    report.seconds = time.perf_counter() - started
    return report


def _base_of(session: Session, checkout: JaxCheckout, first_new: str, before: list[Snapshot]) -> Snapshot:
    """The snapshot to compare against: the first new commit's parent if crawled, else the newest."""
    parents = checkout.commit(first_new).parents
    if parents:
        parent = session.scalar(select(Snapshot).where(Snapshot.commit == parents[0].hexsha))
        if parent is not None:
            return parent
    return session.merge(before[-1])
