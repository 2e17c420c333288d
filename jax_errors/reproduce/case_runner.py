"""Run reproduction cases on the installed jax and record, per case and jax version, what they proved."""

from __future__ import annotations

import os
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path

from sqlalchemy import Engine, delete, select
from sqlalchemy.orm import Session

from jax_errors.crawler.crawl import ensure_crawled
from jax_errors.crawler.installed import installed_jax_dir, installed_snapshot
from jax_errors.db.models import Reproduction, Snapshot
from jax_errors.exceptions import SnapshotNotFoundError, WorkerError
from jax_errors.faults import checkpoint
from jax_errors.progress import Progress
from jax_errors.reproduce.attribution import STATUSES, Attribution, attribute
from jax_errors.reproduce.cases import Case
from jax_errors.reproduce.environments import JaxEnvironment
from jax_errors.reproduce.observation import Observation
from jax_errors.reproduce.pool import WorkerPool
from jax_errors.reproduce.source_tree import JaxTree

CASE_TIMEOUT = float(os.environ.get("JAX_ERRORS_CASE_TIMEOUT", "120"))


@dataclass(frozen=True)
class RunReport:
    """What one `run_cases` did: a stored row per case, by case name."""

    jax_version: str
    results: list[Reproduction]
    seconds: float

    def counts(self) -> dict[str, int]:
        """How many cases ended in each status, in the order of `STATUSES`, zeros left out."""
        counted = Counter(row.status for row in self.results)
        return {status: counted[status] for status in STATUSES if counted[status]}

    def summary(self) -> str:
        counts = ", ".join(f"{n} {status}" for status, n in self.counts().items()) or "nothing run"
        return f"{len(self.results)} cases on jax {self.jax_version}: {counts}; {self.seconds:.1f} s"


def run_cases(
    engine: Engine, cases: Sequence[Case], *, jobs: int = 1, timeout: float | None = None,
    progress: Progress | None = None, tree: JaxTree | None = None, environment: JaxEnvironment | None = None,
    fresh: bool = False,
) -> RunReport:
    """Run every case in worker processes, attribute its error, and store one row per case.

    On the installed jax, crawled first if its snapshot is not in the database yet; or, given a
    `tree`, on that crawled commit's jax source over the installed jaxlib. A case's row for this
    jax version replaces the one an earlier run stored.

    Parameters:
        jobs: how many worker processes run cases side by side.
        timeout: seconds one case (`trigger()` then `fixed()`) may run; `CASE_TIMEOUT` if None.
        tree: a commit's `jax/` from `source_tree.export_tree`; its snapshot must be crawled.
        environment: another jax release's environment (`environments.ensure_environment`); its
            installed jax is crawled first when missing, and the runs are filed under its version.
        fresh: run every case in a new worker process (slower; nothing a case leaves behind can reach another).
    Raises:
        WorkerError: a worker process cannot start (with a tree: often its jax refusing the jaxlib).
        SnapshotNotFoundError: `tree`'s commit is not crawled.
    """
    started = time.perf_counter()
    if tree is not None:
        snapshot_id, version = tree_snapshot(engine, tree)
        jaxlib = _installed_jaxlib()
        refused = tree.refusal(jaxlib) if jaxlib else None
        if refused is not None:
            raise WorkerError(f"jax at {tree.commit[:10]} will not import over the installed jaxlib:\n{refused}")
        jax_dir, pythonpath, python = tree.jax_dir, tree.root, None
    else:
        jax_dir = environment.jax_dir if environment else installed_jax_dir()
        snapshot_id, version = ensure_installed_snapshot(engine, jobs=jobs, progress=progress, package_dir=jax_dir)
        pythonpath = environment.harness_path if environment else None
        python = environment.python if environment else None
    pool = WorkerPool(jobs=max(1, min(jobs, len(cases))), timeout=timeout or CASE_TIMEOUT,
                      pythonpath=pythonpath, python=python, fresh=fresh)
    results: list[Reproduction] = []
    if progress:
        progress(0, len(cases), "")
    for case, observation in pool.run(cases):
        results.append(record(engine, snapshot_id, version, case, observation, jax_dir=jax_dir))
        if progress:
            progress(len(results), len(cases), case.name)
    results.sort(key=lambda row: row.case_name)
    return RunReport(version, results, time.perf_counter() - started)


def _installed_jaxlib() -> str | None:
    try:
        return metadata.version("jaxlib")
    except metadata.PackageNotFoundError:  # the worker's start says what jax makes of that
        return None


def ensure_installed_snapshot(engine: Engine, *, jobs: int = 1, progress: Progress | None = None,
                              package_dir: Path | None = None) -> tuple[int, str]:
    """The id and version of an installed jax's snapshot (this environment's by default), crawled if missing."""
    source = installed_snapshot(package_dir)
    snapshot_id = ensure_crawled(engine, source.commit, lambda: source, jobs=jobs, progress=progress)
    return snapshot_id, source.version or source.commit


def tree_snapshot(engine: Engine, tree: JaxTree) -> tuple[int, str]:
    """The id of the crawled snapshot of `tree`'s commit, and the jax version its runs are filed under.

    A tagged release is filed under its version, like the installed package of that release; any
    other commit under `<version>+<short commit>`, so two commits of one version stay apart.
    """
    with Session(engine) as session:
        snapshot = session.scalar(select(Snapshot).where(Snapshot.commit == tree.commit))
        if snapshot is None:
            raise SnapshotNotFoundError(tree.commit[:10])
        version = tree.version
        return snapshot.id, version if snapshot.tag else f"{version}+{tree.commit[:10]}"


def record(engine: Engine, snapshot_id: int, version: str, case: Case, observation: Observation, *,
           jax_dir: Path) -> Reproduction:
    """Attribute one observation and store it as this case's row for `version`, replacing any older one."""
    with Session(engine, expire_on_commit=False) as session, session.begin():
        snapshot = session.get_one(Snapshot, snapshot_id)
        attribution = attribute(session, snapshot, case, observation, jax_dir=jax_dir)
        session.execute(delete(Reproduction).where(
            Reproduction.case_name == case.name, Reproduction.jax_version == version))
        row = reproduction_row(case, observation, attribution, version=version, snapshot_id=snapshot_id)
        session.add(row)
        session.flush()
        checkpoint("reproduce:recording")
    return row


def reproduction_row(case: Case, observation: Observation, attribution: Attribution, *, version: str,
                     snapshot_id: int | None) -> Reproduction:
    return Reproduction(
        case_name=case.name,
        jax_version=version,
        snapshot_id=snapshot_id,
        status=attribution.status,
        detail=attribution.detail,
        expected=case.expected,
        expected_error_id=case.error_id,
        observed_class=observation.exc_class,
        observed_message=observation.message,
        frames=[frame.to_json() for frame in attribution.frames],
        error_id=attribution.error_id,
        path=attribution.path,
        lineno=attribution.line,
        fixed_ok=observation.fixed_ok,
        fixed_error=observation.fixed_error,
        duration=observation.seconds,
        ran_at=datetime.now(UTC).replace(tzinfo=None),
    )
