"""Keep the catalogue current: crawl the commits a branch gained, re-run the cases and pages they touch."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from jax_errors.crawler.crawl import CrawlReport, crawl_snapshot, date_undated_snapshots
from jax_errors.crawler.history import HistoryReport, crawl_history, has_history
from jax_errors.crawler.repository import JaxRepository
from jax_errors.crawler.store import BlobScan
from jax_errors.db.folding import fold_into_history
from jax_errors.db.history import SnapshotDiff, diff_snapshots, ordered_snapshots
from jax_errors.db.models import Snapshot
from jax_errors.exceptions import WorkerError
from jax_errors.progress import Progress
from jax_errors.reproduce.affected import affected_cases
from jax_errors.reproduce.case_runner import RunReport, run_cases
from jax_errors.reproduce.cases import Case
from jax_errors.reproduce.source_tree import export_tree
from jax_errors.site_gen.build import BuildReport, SiteConfig, build_site
from jax_errors.site_gen.output import cut_short

DEFAULT_LIMIT = 100


@dataclass
class RefreshReport:
    rev: str
    crawls: list[CrawlReport] = field(default_factory=list)
    history: HistoryReport | None = None  # the first-parent history extended, where the catalogue has one
    diff: SnapshotDiff | None = None
    affected: list[str] = field(default_factory=list)  # cases whose raise site changed
    reproduction: RunReport | None = None
    not_run: str | None = None  # why the affected cases could not run on the new commit
    site: BuildReport | None = None
    folded: list[str] = field(default_factory=list)  # commit snapshots folded into the history line
    seconds: float = 0.0

    @property
    def parsed(self) -> int:
        return sum(c.parsed for c in self.crawls)

    def changed_error_ids(self) -> set[str]:
        """Ids whose raise sites came, went or were reworded: what cases and pages depend on."""
        if self.diff is None:
            return set()
        ids = {i.error_id for i in self.diff.added + self.diff.removed}
        ids |= {i.error_id for pair in self.diff.reworded + self.diff.moved for i in pair}
        return ids

    def summary(self) -> str:
        if not self.crawls:
            parts = [f"{self.rev}: up to date"]
        else:
            parts = [f"{self.rev}: crawled {len(self.crawls)} new commits, parsed {self.parsed} changed blobs"]
            if self.diff is None:
                parts.append("first snapshot, nothing to compare")
            else:
                d = self.diff
                parts.append(f"{d.old.label} -> {d.new.label}: {len(d.added)} added, "
                             f"{len(d.removed)} removed, {len(d.moved)} moved, {len(d.reworded)} reworded errors")
        if self.reproduction is not None:
            counts = ", ".join(f"{n} {status}" for status, n in self.reproduction.counts().items())
            parts.append(f"{len(self.affected)} cases re-run on jax {self.reproduction.jax_version}: {counts}")
        elif self.not_run:
            parts.append(f"{len(self.affected)} cases not re-run: {self.not_run}")
        elif self.diff is not None:
            parts.append(f"{len(self.affected)} cases affected")
        if self.history is not None and self.history.commits:
            parts.append(f"history: {self.history.commits} commits, {self.history.events} error events")
        if self.folded:
            parts.append(f"{len(self.folded)} older commit snapshots folded into the history")
        if self.site is not None:
            parts.append(f"site: {self.site.rewritten} pages rewritten, {self.site.unchanged} unchanged")
        return "; ".join(parts + ([f"{self.seconds:.1f} s"] if self.crawls or self.site else []))


def refresh(
    engine: Engine, repository: JaxRepository, rev: str = "HEAD", *, limit: int = DEFAULT_LIMIT,
    jobs: int = 1, progress: Progress | None = None, cases: Sequence[Case] = (),
    timeout: float | None = None, site: SiteConfig | None = None, waiting: Callable[[], None] | None = None,
    fold: bool = False,
) -> RefreshReport:
    """Crawl the commits of `rev` not yet crawled, each in its own transaction, and diff them.

    A catalogue holding a first-parent history (`crawl --history`) has it extended to `rev` too. With `fold`,
    only `rev` is then crawled as a snapshot (the line records each commit), and the snapshots of older
    commits of the line that nothing cites any more are folded into it (`db.folding`): a refresh then costs
    the same after a thousand commits as after one.

    The diff compares the newest snapshot crawled before (on this branch if it has one) with `rev`.
    Of `cases`, those whose raise site changed run again on the new commit's jax source (see
    `source_tree`); when that jax will not start on the installed jaxlib, `not_run` says why and
    nothing stored changes. With `site`, the site is rebuilt, rewriting only pages that changed
    (also with no new commit, when its last build was cut short). `waiting()` is called when a
    crawl waits for another process writing the database.
    """
    started = time.perf_counter()
    report = RefreshReport(rev)
    date_undated_snapshots(engine, lambda row: repository.commit_date(row.commit))
    with Session(engine) as session:
        crawled = set(session.scalars(select(Snapshot.commit)))
        before = ordered_snapshots(session)
    todo = repository.commits_since(rev, crawled, limit=limit)
    history = has_history(engine)
    if history and fold:
        todo = todo[-1:]  # the line records each commit: only the newest becomes a snapshot

    def extend_history(scanned: Sequence[BlobScan] = ()) -> None:
        if report.history is not None:  # a crawl tried again (PostgreSQL) calls it again
            return
        report.history = crawl_history(engine, repository, rev, jobs=jobs, progress=progress, waiting=waiting,
                                       scanned=scanned)

    for n, commit in enumerate(todo, 1):
        # The line is extended while the newest commit's call graph is made, from the blobs that crawl scanned.
        report.crawls.append(crawl_snapshot(engine, repository.snapshot(commit), jobs=jobs, progress=progress,
                                            waiting=waiting, meanwhile=extend_history if history and n == len(todo)
                                            else None))
    if history and report.history is None:  # no commit to crawl, or it was stored already
        extend_history()
    if todo and before:
        with Session(engine) as session:
            new = session.scalar(select(Snapshot).where(Snapshot.commit == todo[-1]))
            old = _base_of(session, repository, todo[0], before)
            report.diff = diff_snapshots(session, old, new)
            affected = affected_cases(session, cases, old, new, report.changed_error_ids()) if cases else []
        report.affected = [case.name for case in affected]
        if affected:
            _rerun(engine, repository, report, affected, todo[-1], jobs=jobs, timeout=timeout, progress=progress)
    if history and fold:
        report.folded = fold_into_history(engine, waiting=waiting)
    if site is not None and (todo or report.folded or not (site.out / "index.html").exists()
                             or cut_short(site.out)):
        report.site = build_site(engine, site, progress=progress)
    report.seconds = time.perf_counter() - started
    return report


def _rerun(engine: Engine, repository: JaxRepository, report: RefreshReport, cases: Sequence[Case], commit: str, *,
           jobs: int, timeout: float | None, progress: Progress | None) -> None:
    tree = export_tree(repository, commit)
    try:
        report.reproduction = run_cases(engine, cases, jobs=jobs, timeout=timeout, progress=progress, tree=tree)
    except WorkerError as error:
        report.not_run = _reason(error)


def _reason(error: WorkerError) -> str:
    """The last line of a failed worker start: jax's own words on why it would not import."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    return lines[-1] if len(lines) > 1 else (lines[0] if lines else type(error).__name__)


def _base_of(session: Session, repository: JaxRepository, first_new: str, before: list[Snapshot]) -> Snapshot:
    """The snapshot to compare against: the first new commit's parent if crawled, else the newest."""
    parents = repository.commit(first_new).parents
    if parents:
        parent = session.scalar(select(Snapshot).where(Snapshot.commit == parents[0].hexsha))
        if parent is not None:
            return parent
    return session.merge(before[-1])
