"""Worker processes that run cases: each imports jax once and runs many cases over a JSON-lines pipe.

A case that outlives its timeout, or that kills the interpreter, costs only its worker: the
worker is killed (or reaped) and the next case on that slot starts a fresh one. The timeout
starts once the request is sent, so a worker's startup (importing jax) never counts against it.
A worker's data segment is capped (MEMORY_LIMIT_MB): a case that allocates past it is `crashed`,
out of memory. What a worker prints is read as it comes, and only its end is kept.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import IO, Any, TypeVar

from jax_errors.exceptions import WorkerDied, WorkerError
from jax_errors.reproduce.cases import Case
from jax_errors.reproduce.observation import Observation
from jax_errors.reproduce.sandbox import kill_group, spawn
from jax_errors.reproduce.worker import ENVIRONMENT

WORKER_MODULE = "jax_errors.reproduce.worker"
STARTUP_TIMEOUT = float(os.environ.get("JAX_ERRORS_WORKER_STARTUP_TIMEOUT", "180"))
# How far a worker's data segment may grow (RLIMIT_DATA), in MiB; 0: no limit. Importing jax and
# running a case take a few hundred.
MEMORY_LIMIT_MB = int(os.environ.get("JAX_ERRORS_CASE_MEMORY_MB", "8192"))
STDERR_TAIL = 2000  # characters of a dead worker's stderr shown in its case's row
STDERR_KEPT = 64 * 1024  # bytes of a worker's stderr kept, however much a case prints
T = TypeVar("T")
R = TypeVar("R")




class Tail:
    """The last `limit` bytes written to a pipe, read on a thread of its own so that the writer never blocks.

    The thread owns the pipe, and closes it at its end: when every process that could write to it is gone.
    """

    def __init__(self, stream: IO[bytes], limit: int = STDERR_KEPT) -> None:
        self.limit = limit
        self._kept = bytearray()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._drain, args=(stream,), name="worker-stderr", daemon=True)
        self._thread.start()

    def _drain(self, stream: IO[bytes]) -> None:
        with stream:
            while chunk := os.read(stream.fileno(), 65536):
                with self._lock:
                    self._kept += chunk
                    del self._kept[:-self.limit]

    def join(self, timeout: float = 10) -> None:
        """Wait for the thread to end (it does once the writers are gone)."""
        self._thread.join(timeout=timeout)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()

    def text(self, *, ended: bool = False) -> str:
        """What was kept since the last `clear`; `ended`: the writers are gone, so wait for the rest first."""
        if ended:
            self.join()
        with self._lock:
            return self._kept.decode("utf-8", "replace")


class Worker:
    """One worker process: send it requests, read its replies with a deadline."""

    def __init__(self, *, startup_timeout: float = STARTUP_TIMEOUT, pythonpath: Path | None = None,
                 python: Path | None = None, module: str = WORKER_MODULE) -> None:
        self._buffer = b""
        self.memory_limit_mb = MEMORY_LIMIT_MB
        self.process = spawn(
            [str(python or sys.executable), "-m", module], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.PIPE, env=worker_environment(pythonpath), memory_limit=self.memory_limit_mb * 2**20 or None,
        )
        self._stderr = Tail(self.process.stderr)
        self._exit = _exit_watch(self.process.pid)
        try:
            ready = self.receive(time.monotonic() + startup_timeout)
        except WorkerDied as died:
            self.close()
            raise WorkerError(f"a reproduction worker did not start: {died.reason}") from died
        if ready is None:
            self.close()
            raise WorkerError(f"a reproduction worker did not start within {startup_timeout:.0f} s")
        self.jax_version: str = ready["jax_version"]

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def send(self, request: dict[str, Any]) -> None:
        self._stderr.clear()
        try:
            self.process.stdin.write((json.dumps(request) + "\n").encode())
            self.process.stdin.flush()
        except (BrokenPipeError, OSError) as error:
            raise WorkerDied(self._death()) from error

    def receive(self, deadline: float) -> dict[str, Any] | None:
        """The next reply, or None when `deadline` (a `time.monotonic()` value) passes first.

        Raises:
            WorkerDied: the worker ended (it crashed or exited), even if a child it forked still
                holds its output open.
        """
        fd = self.process.stdout.fileno()
        watched = [fd] + ([self._exit] if self._exit is not None else [])
        while b"\n" not in self._buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            # Without a pidfd, look at the process now and then.
            readable, _, _ = select.select(watched, [], [], remaining if self._exit is not None else min(remaining, 1))
            if fd in readable:
                chunk = os.read(fd, 65536)
                if not chunk:
                    raise WorkerDied(self._death())
                self._buffer += chunk
            elif readable or (self._exit is None and self.process.poll() is not None):
                raise WorkerDied(self._death())  # ended, all it wrote read; a child of its case keeps the pipe
        line, _, self._buffer = self._buffer.partition(b"\n")
        try:
            reply = json.loads(line)
        except ValueError as error:  # a case wrote into the protocol pipe: its worker cannot be trusted
            self.close()
            raise WorkerDied(f"the worker's reply is not the protocol's: {line[:200]!r}") from error
        if not isinstance(reply, dict) or not {"phase", "ready"} & reply.keys():
            self.close()
            raise WorkerDied(f"the worker's reply is not the protocol's: {line[:200]!r}")
        return reply

    def _death(self) -> str:
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass  # it closed its stdout but lingers: killed now
        code = kill_group(self.process)  # with what its case forked, which may hold its stderr open
        how = f"killed by {signal.Signals(-code).name}" if code is not None and code < 0 else f"exit status {code}"
        tail = self.stderr_tail(ended=True)
        return f"the worker died ({how})" + (f":\n{tail}" if tail else "")

    def stderr_tail(self, *, ended: bool = False) -> str:
        """The end of what the worker wrote to stderr since the last request (`ended`: all of it, it is gone)."""
        return self._stderr.text(ended=ended).strip()[-STDERR_TAIL:]

    def close(self) -> None:
        """Kill the worker (its whole process group) and release its pipes; safe to call twice."""
        kill_group(self.process)
        for stream in (self.process.stdin, self.process.stdout):
            try:
                stream.close()
            except OSError:
                pass  # the stdin pipe of a killed worker may refuse its final flush
        if self._exit is not None:
            os.close(self._exit)
            self._exit = None
        # Its group killed, the pipe's writers are gone: the thread ends, and leaves the process one thread
        # (a build forks only then, see `forked`).
        self._stderr.join(timeout=2)


def _exit_watch(pid: int) -> int | None:
    """A descriptor that becomes readable when the process ends (Linux's pidfd), or None where there is none."""
    try:
        return os.pidfd_open(pid)
    except (AttributeError, OSError):
        return None


def worker_environment(pythonpath: Path | None = None) -> dict[str, str]:
    """This process's environment with the harness's jax settings on top.

    `pythonpath` goes first on PYTHONPATH: a folder holding another `jax/` to import instead of
    the installed one (see `source_tree`).
    """
    env = {**os.environ, **ENVIRONMENT}
    if pythonpath is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(pythonpath), env.get("PYTHONPATH")]))
    return env


def run_on(worker: Worker, case: Case, timeout: float) -> Observation:
    """Run one case on `worker`; a worker that timed out or died is left closed for the caller to replace."""
    sent = time.monotonic()
    deadline = sent + timeout
    try:
        worker.send({"name": case.name, "path": str(case.path.resolve()), "expected": case.expected})
        reply = worker.receive(deadline)
    except WorkerDied as died:
        return Observation("crashed", message=died.reason, seconds=time.monotonic() - sent,
                           detail="the worker died while trigger() ran")
    if reply is None:
        worker.close()
        return Observation("timeout", seconds=timeout, detail=f"trigger() ran longer than {timeout:g} s")
    if _out_of_memory(reply):
        worker.close()  # a worker that ran out of memory is not trusted with the next case
        limit = f" past the worker's limit of {worker.memory_limit_mb:,} MiB (JAX_ERRORS_CASE_MEMORY_MB)" \
            if worker.memory_limit_mb else ""
        return Observation("crashed", exc_class=reply.get("exc_class"), message=reply.get("message"),
                           seconds=time.monotonic() - sent, detail=f"out of memory: trigger() allocated{limit}")
    observation = Observation.from_trigger(reply)
    try:
        reply = worker.receive(deadline)
    except WorkerDied as died:
        return observation.with_fixed_failure(f"crashed: {died.reason}", time.monotonic() - sent)
    if reply is None:
        worker.close()
        return observation.with_fixed_failure(f"timed out after {timeout:g} s", timeout)
    return observation.with_fixed(reply)


def _out_of_memory(reply: dict[str, Any]) -> bool:
    """Whether trigger() failed for want of memory (Python's or XLA's), not with the error it expects."""
    if not reply.get("raised") or reply.get("class_matches"):
        return False
    return bool(reply.get("out_of_memory")) or "RESOURCE_EXHAUSTED: Out of memory" in (reply.get("message") or "")


class WorkerPool:
    """`jobs` worker slots, each running cases (or another worker module's requests) one after another on its own
    worker process."""

    def __init__(self, *, jobs: int = 1, timeout: float, startup_timeout: float = STARTUP_TIMEOUT,
                 pythonpath: Path | None = None, python: Path | None = None, fresh: bool = False,
                 module: str = WORKER_MODULE) -> None:
        self.jobs = jobs
        self.module = module  # what the workers run: `python -m module`
        self.fresh = fresh  # a new worker process for every case, none sharing one
        self.pythonpath = pythonpath
        self.python = python  # another environment's interpreter (see `environments`), else this one
        self.timeout = timeout
        self.startup_timeout = startup_timeout
        self._local = threading.local()
        self._workers: list[Worker] = []
        self._lock = threading.Lock()
        self._closed = False

    def run(self, cases: Iterable[Case]) -> Iterator[tuple[Case, Observation]]:
        """Yield each case with its observation, in the order they finish."""
        return self.map(cases, lambda worker, case: run_on(worker, case, self.timeout))

    def map(self, items: Iterable[T], runner: Callable[[Worker, T], R]) -> Iterator[tuple[T, R]]:
        """Yield each item with what `runner(worker, item)` made of it on a worker, in the order they finish.

        A worker that died, or whose result says it is `tainted`, is replaced before the next item.
        """
        with ThreadPoolExecutor(max_workers=self.jobs, thread_name_prefix="reproduce") as executor:
            futures = {executor.submit(self._run_one, item, runner): item for item in items}
            try:
                for future in as_completed(futures):
                    yield futures[future], future.result()
            finally:
                for future in futures:
                    future.cancel()
                self.close()

    def _run_one(self, item: T, runner: Callable[[Worker, T], R]) -> R:
        worker = self._worker()
        result = runner(worker, item)
        if self.fresh or not worker.alive or getattr(result, "tainted", False):
            self._retire(worker)
        return result

    def _worker(self) -> Worker:
        worker = getattr(self._local, "worker", None)
        if worker is None or not worker.alive:
            if self._closed:
                raise WorkerError("the worker pool is closed")
            worker = Worker(startup_timeout=self.startup_timeout, pythonpath=self.pythonpath, python=self.python,
                            module=self.module)
            with self._lock:
                if self._closed:  # closed while this worker started: it would outlive the pool
                    worker.close()
                    raise WorkerError("the worker pool is closed")
                self._workers.append(worker)
            self._local.worker = worker
        return worker

    def _retire(self, worker: Worker) -> None:
        worker.close()
        with self._lock:
            if worker in self._workers:
                self._workers.remove(worker)
        self._local.worker = None

    def close(self) -> None:
        """Kill every worker still running."""
        self._closed = True
        with self._lock:
            workers, self._workers = self._workers, []
        for worker in workers:
            worker.close()
