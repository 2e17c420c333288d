"""Probe jax: call every public function with generated arguments, and keep the calls that raise at a raise site.

Where neither a case nor one of JAX's tests shows an error raised, a probe often can: most checks
of jax's public functions refuse an argument of the wrong shape, dtype or kind. Each call is made
in a worker process (`probe_worker`), several functions at a time, each function under a deadline;
a call is kept for an error when
- the innermost frame of its traceback is a raise statement of jax (not a C function or numpy
  called from jax), at a raise site crawled in the snapshot of the jax that ran it;
- its exception class is the site's (by name, when the crawler resolved it);
- its message fits the site's template.
Per jax version and error, the shortest such call is stored (`ProbedCall`), with a snippet that
runs as shown.
"""

from __future__ import annotations

import fnmatch
import os
import tempfile
import time
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, delete, select
from sqlalchemy.orm import Session

from jax_errors.crawler.installed import installed_jax_dir
from jax_errors.db.models import ProbedCall, Snapshot
from jax_errors.db.queries import LocatedSite, site_at
from jax_errors.exceptions import WorkerDied, WorkerError
from jax_errors.progress import Progress
from jax_errors.reproduce.attribution import message_fits
from jax_errors.reproduce.case_runner import ensure_installed_snapshot
from jax_errors.reproduce.environments import JaxEnvironment
from jax_errors.reproduce.pool import Worker, WorkerPool
from jax_errors.reproduce.probe_calls import shortness

PROBE_MODULE = "jax_errors.reproduce.probe_worker"
FUNCTION_TIMEOUT = float(os.environ.get("JAX_ERRORS_PROBE_FUNCTION_TIMEOUT", "300"))
CRASH_RETRIES = 3  # times a function is probed again, each time without the call that killed its worker
# The modules whose public functions are probed: jax's public API, as its docs list it.
PROBED_MODULES = (
    "jax", "jax.numpy", "jax.numpy.linalg", "jax.numpy.fft", "jax.lax", "jax.lax.linalg", "jax.random",
    "jax.nn", "jax.nn.initializers", "jax.scipy.special", "jax.scipy.linalg", "jax.scipy.signal",
    "jax.scipy.fft", "jax.scipy.ndimage", "jax.scipy.integrate", "jax.scipy.interpolate",
    "jax.scipy.optimize", "jax.scipy.sparse.linalg", "jax.scipy.cluster.vq", "jax.scipy.spatial.transform",
    "jax.scipy.stats", *(f"jax.scipy.stats.{name}" for name in (
        "bernoulli", "beta", "betabinom", "binom", "cauchy", "chi2", "dirichlet", "expon", "gamma",
        "gennorm", "geom", "gumbel_l", "gumbel_r", "laplace", "logistic", "multinomial", "multivariate_normal",
        "nbinom", "norm", "pareto", "poisson", "t", "truncnorm", "uniform", "vonmises", "wrapcauchy")),
    "jax.image", "jax.tree", "jax.tree_util", "jax.dtypes", "jax.sharding", "jax.export", "jax.ops", "jax.debug",
    "jax.ad_checkpoint", "jax.custom_derivatives", "jax.custom_batching", "jax.custom_transpose", "jax.stages",
    "jax.experimental", "jax.experimental.checkify", "jax.experimental.shard_map", "jax.experimental.sparse",
    "jax.experimental.ode", "jax.experimental.jet", "jax.experimental.mesh_utils", "jax.experimental.pallas",
    "jax.experimental.custom_partitioning", "jax.experimental.shard_alike", "jax.experimental.topologies",
    "jax.experimental.layout", "jax.experimental.pjit", "jax.experimental.buffer_callback",
    "jax.experimental.multihost_utils", "jax.Array", "jax.Ref", "jax.experimental.sparse.BCOO",
)


@dataclass(frozen=True)
class ProbedFunction:
    """What probing one function gave: how many calls it made, the places they raised at, or why it stopped."""

    function: str
    calls: int = 0
    hits: tuple[dict[str, Any], ...] = ()
    failure: str | None = None  # "crashed: ...", "timeout: ..." or "failed: ..." (the probe's own error)
    tainted: bool = False  # its worker grew too big to go on: the pool replaces it
    crashed_on: str | None = None  # the call that killed the worker, when it could be told


@dataclass
class ProbeReport:
    """What one `probe_jax` did."""

    jax_version: str
    functions: int = 0
    calls: int = 0
    places: int = 0  # places inside jax where a call raised, raise sites or not
    stored: list[ProbedCall] = field(default_factory=list)  # the rows written, one per error id
    limited: bool = False  # probed only some functions (`only`): rows of other calls stood
    rejected: Counter = field(default_factory=Counter)  # hits not kept, by reason
    failures: list[str] = field(default_factory=list)
    skipped_calls: int = 0  # calls left out because they killed a worker
    seconds: float = 0.0

    def summary(self) -> str:
        rejected = ", ".join(f"{n} {reason}" for reason, n in sorted(self.rejected.items())) or "none"
        failed = f"; {len(self.failures)} functions stopped (crashed or timed out)" if self.failures else ""
        if self.skipped_calls:
            failed += f"; {self.skipped_calls} calls that killed a worker left out"
        stored = "given a new or shorter probed call" if self.limited else "with a probed call"
        return (f"jax {self.jax_version}: {self.functions} functions probed with {self.calls:,} calls; "
                f"they raised at {self.places} places inside jax; {len(self.stored)} errors {stored} "
                f"(not kept: {rejected}){failed}; {self.seconds:.1f} s")


def probe_jax(engine: Engine, *, only: Sequence[str] = (), modules: Sequence[str] = PROBED_MODULES, jobs: int = 1,
              timeout: float = FUNCTION_TIMEOUT, environment: JaxEnvironment | None = None,
              progress: Progress | None = None) -> ProbeReport:
    """Probe the public functions of `modules` on the installed jax (or `environment`'s) and store what they prove.

    The jax's snapshot is crawled first when missing. A full probe replaces the rows of this jax
    version; one limited by `only` (function names or globs, `jax.lax.*`) keeps them, a shorter call
    replacing a longer one for the same error. Nothing is written before every function is probed.

    Raises:
        WorkerError: no worker process can start.
    """
    started = time.perf_counter()
    jax_dir = environment.jax_dir if environment else installed_jax_dir()
    snapshot_id, version = ensure_installed_snapshot(engine, jobs=jobs, progress=progress, package_dir=jax_dir)
    python = environment.python if environment else None
    pythonpath = environment.harness_path if environment else None
    with tempfile.TemporaryDirectory(prefix="jax-errors-probe-") as folder:  # the calls' working folder
        functions = [name for name in listed_functions(modules, python=python, pythonpath=pythonpath, folder=folder)
                     if not only or any(fnmatch.fnmatchcase(name, pattern) for pattern in only)]
        report = ProbeReport(version, functions=len(functions))
        outcomes: dict[str, ProbedFunction] = {}
        skipped: dict[str, tuple[str, ...]] = {name: () for name in functions}
        if progress:
            progress(0, len(functions), "")
        journals = Path(folder) / "journals"
        journals.mkdir()
        for attempt in range(1 + CRASH_RETRIES):
            # A function whose call killed its worker is probed again without that call.
            todo = [name for name in functions if attempt == 0 or _retry(outcomes[name])]
            for name in todo:
                if attempt:
                    skipped[name] += (outcomes[name].crashed_on,)
            journal = {name: str(journals / str(index)) for index, name in enumerate(todo)}
            pool = WorkerPool(jobs=max(1, min(jobs, len(todo))), timeout=timeout, module=PROBE_MODULE,
                              python=python, pythonpath=pythonpath)  # a map closes its pool at its end
            for name, outcome in pool.map(todo, lambda worker, name: probe_on(
                    worker, name, timeout, skip=skipped[name], journal=journal[name])):
                report.calls += outcome.calls
                outcomes[name] = outcome
                if progress and attempt == 0:
                    progress(len(outcomes), len(functions), name)
            if not any(_retry(outcomes[name]) for name in functions):
                break
    probed = [outcomes[name] for name in functions]
    report.failures = sorted(f"{o.function}: {o.failure}" for o in probed if o.failure)
    report.skipped_calls = sum(len(calls) for calls in skipped.values())
    hits = [hit | {"function": outcome.function} for outcome in probed for hit in outcome.hits]
    report.places = len({(hit["path"], hit["line"]) for hit in hits})
    failed = {o.function for o in probed if o.failure}
    report.limited = bool(only)
    report.stored = store_probes(engine, snapshot_id, version, hits, replace=not only, rejected=report.rejected,
                                 keeping=failed)
    report.seconds = time.perf_counter() - started
    return report


def listed_functions(modules: Sequence[str], *, python: Path | None = None, pythonpath: Path | None = None,
                     folder: str | None = None) -> list[str]:
    """The public functions and classes of `modules` that jax defines, as a probe worker of that jax lists them."""
    worker = Worker(python=python, pythonpath=pythonpath, module=PROBE_MODULE)
    try:
        worker.send({"list": list(modules), "folder": folder})
        reply = worker.receive(time.monotonic() + FUNCTION_TIMEOUT)
    except WorkerDied as died:
        raise WorkerError(f"a probe worker died listing jax's functions: {died.reason}") from died
    finally:
        worker.close()
    if reply is None:
        raise WorkerError(f"a probe worker did not list jax's functions within {FUNCTION_TIMEOUT:g} s")
    return reply["functions"]


def _retry(outcome: ProbedFunction) -> bool:
    return outcome.crashed_on is not None


def probe_on(worker: Worker, name: str, timeout: float, *, skip: Sequence[str] = (),
             journal: str | None = None) -> ProbedFunction:
    """Probe one function on `worker`, but the calls in `skip`; a worker that timed out or died is left closed.

    `journal`: a file the worker writes each call to before it makes it: when the worker dies, the
    call that killed it is read there (`crashed_on`).
    """
    try:
        worker.send({"probe": name, "skip": list(skip), "journal": journal,
                     "folder": os.path.dirname(journal) if journal else None})
        reply = worker.receive(time.monotonic() + timeout)
    except WorkerDied as died:
        return ProbedFunction(name, failure=f"crashed: {died.reason}", crashed_on=_last_call(journal, skip))
    if reply is None:
        worker.close()
        return ProbedFunction(name, failure=f"timeout: its calls ran longer than {timeout:g} s")
    failure = f"failed: {reply['error']}" if reply.get("error") else None
    return ProbedFunction(name, reply["calls"], tuple(reply["hits"]), failure, bool(reply.get("tainted")))


def _last_call(journal: str | None, skip: Sequence[str]) -> str | None:
    """The call a dead worker was making, as its journal says; None when unknown or skipped already."""
    try:
        text = Path(journal).read_text(encoding="utf-8") if journal else ""
    except (OSError, UnicodeDecodeError):
        return None
    return text if text and text not in skip else None


def store_probes(engine: Engine, snapshot_id: int, version: str, hits: list[dict[str, Any]], *, replace: bool,
                 rejected: Counter | None = None, keeping: Collection[str] = ()) -> list[ProbedCall]:
    """Attribute each hit to its raise site and store, per error id, the shortest call; the rows stored.

    `replace`: first drop the version's rows, but those of the functions in `keeping` (functions this
    probe could not finish: what an earlier probe found with them stands).
    """
    rejected = Counter() if rejected is None else rejected
    with Session(engine, expire_on_commit=False) as session, session.begin():
        snapshot = session.get_one(Snapshot, snapshot_id)
        best: dict[str, ProbedCall] = {}
        for hit in hits:
            located = site_at(session, snapshot, hit["path"], hit["line"])
            reason = None if located else "no raise site there"
            reason = reason or refusal(located, hit["exc_class"], hit["message"])
            if reason:
                rejected[reason] += 1
                continue
            row = _row(hit, located, version, snapshot_id)
            if _shorter(row, best.get(row.error_id)):
                best[row.error_id] = row
        if replace:
            session.execute(delete(ProbedCall).where(ProbedCall.jax_version == version,
                                                     ProbedCall.function.not_in(list(keeping))))
        if keeping or not replace:
            kept = {row.error_id: row for row in session.scalars(select(ProbedCall).where(
                ProbedCall.jax_version == version, ProbedCall.error_id.in_(list(best))))}
            for error_id, old in kept.items():
                if _shorter(best[error_id], old):
                    session.delete(old)
                else:
                    del best[error_id]
            session.flush()
        session.add_all(best.values())
    return sorted(best.values(), key=lambda row: row.error_id)


def refusal(located: LocatedSite, exc_class: str, message: str) -> str | None:
    """Why a call raising `exc_class(message)` at `located` does not prove its error, or None when it does."""
    site_class = located.site.exc_class
    if site_class and site_class.rsplit(".", 1)[-1] != exc_class.rsplit(".", 1)[-1]:
        return "another class"
    if not message_fits(message, located.site.template_parts):
        return "message off the template"
    return None


def _row(hit: dict[str, Any], located: LocatedSite, version: str, snapshot_id: int) -> ProbedCall:
    return ProbedCall(
        jax_version=version, snapshot_id=snapshot_id, error_id=located.error_id, path=located.path,
        lineno=hit["line"], function=hit["function"], call=hit["call"], snippet=hit["snippet"],
        exc_class=hit["exc_class"], message=hit["message"], frames=hit["frames"],
    )


def _shorter(row: ProbedCall, than: ProbedCall | None) -> bool:
    return than is None or shortness(row.call) < shortness(than.call)
