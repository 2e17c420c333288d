"""Work done on the second core: in a forked copy of this process, while the process goes on.

A build holds the whole catalogue in memory. A forked child shares it as it is, without pickling
or loading it again, computes its share of the work, and sends back only the (pickled) result
through a pipe. Pages the child only reads stay shared (reference counts it changes copy some).

Forking is only safe in a process running one thread: where another thread runs (a progress bar
refreshing itself, a notebook's kernel), or where there is no `os.fork`, the work is done in the
process itself when its result is asked for. A child that fails or dies has its work done again
in the process, so that a failure is raised there, as the job's own.
"""

from __future__ import annotations

import gc
import os
import pickle
import signal
import threading
from collections.abc import Callable
from typing import Generic, TypeVar

from jax_errors.reproduce.sandbox import die_with_parent

T = TypeVar("T")


def only_thread() -> bool:
    """Whether this process runs a single thread: forking it is safe."""
    return threading.active_count() == 1


class Forked(Generic[T]):
    """`work()`, started at once in a forked child where that is safe; `result()` waits for it."""

    def __init__(self, work: Callable[[], T], *, fork: bool = True) -> None:
        """`fork=False` does the work here, when the result is first asked for.

        The child must not touch what it shares with this process and cannot share: a database
        connection, a pipe to a subprocess (GitPython's `git cat-file`). Read those first.
        """
        self._work = work
        self._result: tuple[T] | None = None
        self._pid: int | None = None
        self._pipe: int | None = None
        if fork and hasattr(os, "fork") and only_thread():
            self._start()

    @property
    def in_child(self) -> bool:
        """Whether the work runs in a child (else `result()` does it here)."""
        return self._pid is not None

    def _start(self) -> None:
        read, write = os.pipe()
        try:
            self._pid = os.fork()
        except OSError:  # no memory or process left for a child: the work is done here
            os.close(read)
            os.close(write)
            return
        if self._pid == 0:  # the child: do the work, send it, and leave without running the parent's exit handlers
            # The collector stays off: collecting an inherited cycle could finalize what the parent still
            # uses (a database connection), and it would copy the shared pages it walks.
            gc.disable()
            os.close(read)
            status = 0
            try:
                die_with_parent()
                try:
                    payload = pickle.dumps((True, self._work()), protocol=pickle.HIGHEST_PROTOCOL)
                except BaseException:  # noqa: BLE001 - the parent does the work again and raises it
                    payload = pickle.dumps((False, None))
                with os.fdopen(write, "wb") as pipe:
                    pipe.write(payload)
            except BaseException:  # noqa: BLE001 - the parent reads a cut payload as a failure
                status = 1
            finally:
                os._exit(status)
        os.close(write)
        self._pipe = read

    def done(self, value: T) -> None:
        """Give the result without doing the work (it turned out to be known)."""
        self.stop()
        self._result = (value,)

    def result(self) -> T:
        """The work's result: the child's, or, where there is none or it failed, the work done here."""
        if self._result is None:
            self._result = (self._wait() if self._pid is not None else self._work(),)
        return self._result[0]

    def _wait(self) -> T:
        with os.fdopen(self._pipe, "rb") as pipe:
            self._pipe = None
            payload = pipe.read()  # all the child wrote, once it is gone
        self._reap()
        try:
            done, value = pickle.loads(payload)
        except Exception:  # noqa: BLE001 - died before sending it whole
            done, value = False, None
        return value if done else self._work()

    def stop(self) -> None:
        """Give up the child's work (the job failed or was interrupted)."""
        if self._pid is not None:
            try:
                os.kill(self._pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self._reap()
        if self._pipe is not None:
            os.close(self._pipe)
            self._pipe = None

    def _reap(self) -> None:
        try:
            os.waitpid(self._pid, 0)
        except ChildProcessError:
            pass
        self._pid = None
