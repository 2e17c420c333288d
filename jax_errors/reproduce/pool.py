"""Worker processes that run cases: each imports jax once and runs many cases over a JSON-lines pipe.

A case that outlives its timeout, or that kills the interpreter, costs only its worker: the
worker is killed (or reaped) and the next case on that slot starts a fresh one. The timeout
starts once the request is sent, so a worker's startup (importing jax) never counts against it.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from jax_errors.exceptions import WorkerDied, WorkerError
from jax_errors.reproduce.cases import Case
from jax_errors.reproduce.observation import Observation
from jax_errors.reproduce.sandbox import kill_group, spawn
from jax_errors.reproduce.worker import ENVIRONMENT

WORKER_MODULE = "jax_errors.reproduce.worker"
STARTUP_TIMEOUT = float(os.environ.get("JAX_ERRORS_WORKER_STARTUP_TIMEOUT", "180"))
STDERR_TAIL = 2000




class Worker:
    """One worker process: send it requests, read its replies with a deadline."""

    def __init__(self, *, startup_timeout: float = STARTUP_TIMEOUT, pythonpath: Path | None = None,
                 python: Path | None = None) -> None:
        self._stderr = tempfile.TemporaryFile()
        self._stderr_mark = 0
        self._buffer = b""
        self.process = spawn(
            [str(python or sys.executable), "-m", WORKER_MODULE], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=self._stderr, env=worker_environment(pythonpath),
        )
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
        self._stderr_mark = self._stderr.seek(0, os.SEEK_END)
        try:
            self.process.stdin.write((json.dumps(request) + "\n").encode())
            self.process.stdin.flush()
        except (BrokenPipeError, OSError) as error:
            raise WorkerDied(self._death()) from error

    def receive(self, deadline: float) -> dict[str, Any] | None:
        """The next reply, or None when `deadline` (a `time.monotonic()` value) passes first.

        Raises:
            WorkerDied: the worker's output ended (it crashed or exited).
        """
        fd = self.process.stdout.fileno()
        while b"\n" not in self._buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            readable, _, _ = select.select([fd], [], [], remaining)
            if not readable:
                return None
            chunk = os.read(fd, 65536)
            if not chunk:
                raise WorkerDied(self._death())
            self._buffer += chunk
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
            code = self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:  # it closed its stdout but lingers: finish it off
            code = kill_group(self.process)
        how = f"killed by {signal.Signals(-code).name}" if code is not None and code < 0 else f"exit status {code}"
        tail = self.stderr_tail()
        return f"the worker died ({how})" + (f":\n{tail}" if tail else "")

    def stderr_tail(self) -> str:
        """The end of what the worker wrote to stderr since the last request."""
        self._stderr.seek(self._stderr_mark)
        text = self._stderr.read().decode("utf-8", "replace").strip()
        return text[-STDERR_TAIL:]

    def close(self) -> None:
        """Kill the worker (its whole process group) and release its pipes; safe to call twice."""
        kill_group(self.process)
        for stream in (self.process.stdin, self.process.stdout):
            try:
                stream.close()
            except OSError:
                pass  # the stdin pipe of a killed worker may refuse its final flush
        self._stderr.close()


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
    observation = Observation.from_trigger(reply)
    try:
        reply = worker.receive(deadline)
    except WorkerDied as died:
        return observation.with_fixed_failure(f"crashed: {died.reason}", time.monotonic() - sent)
    if reply is None:
        worker.close()
        return observation.with_fixed_failure(f"timed out after {timeout:g} s", timeout)
    return observation.with_fixed(reply)


class WorkerPool:
    """`jobs` worker slots, each running cases one after another on its own worker process."""

    def __init__(self, *, jobs: int = 1, timeout: float, startup_timeout: float = STARTUP_TIMEOUT,
                 pythonpath: Path | None = None, python: Path | None = None, fresh: bool = False) -> None:
        self.jobs = jobs
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
        with ThreadPoolExecutor(max_workers=self.jobs, thread_name_prefix="reproduce") as executor:
            futures = {executor.submit(self._run_one, case): case for case in cases}
            try:
                for future in as_completed(futures):
                    yield futures[future], future.result()
            finally:
                for future in futures:
                    future.cancel()
                self.close()

    def _run_one(self, case: Case) -> Observation:
        worker = self._worker()
        observation = run_on(worker, case, self.timeout)
        if self.fresh or not worker.alive or observation.tainted:
            self._retire(worker)
        return observation

    def _worker(self) -> Worker:
        worker = getattr(self._local, "worker", None)
        if worker is None or not worker.alive:
            if self._closed:
                raise WorkerError("the worker pool is closed")
            worker = Worker(startup_timeout=self.startup_timeout, pythonpath=self.pythonpath, python=self.python)
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
