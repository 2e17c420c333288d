"""Work on the second core: a forked child's result, or the same work done here when the child cannot."""

import os
import signal
import threading
import time

import pytest

from jax_errors.forked import Forked

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no os.fork here")


def test_the_work_runs_in_a_child_and_its_result_comes_back(forking):
    here = os.getpid()
    work = Forked(lambda: (os.getpid(), [n * n for n in range(10)]))
    assert work.in_child
    pid, squares = work.result()
    assert pid != here and squares[-1] == 81
    assert work.result()[0] == pid  # asked again: the same result, not the work again


def test_a_child_that_fails_or_dies_has_its_work_done_here(forking):
    here = os.getpid()

    def fails_in_child():
        if os.getpid() != here:
            raise RuntimeError("only in the child")
        return "done here"

    def dies_in_child():
        if os.getpid() != here:
            os.kill(os.getpid(), signal.SIGKILL)
        return "done here"

    for work in (Forked(fails_in_child), Forked(dies_in_child)):
        assert work.in_child and work.result() == "done here"


def test_work_that_fails_everywhere_raises_here(forking):
    work = Forked(lambda: 1 / 0)
    assert work.in_child
    with pytest.raises(ZeroDivisionError):
        work.result()


def test_a_fork_the_system_refuses_means_the_work_is_done_here(forking, monkeypatch):
    def refused():
        raise BlockingIOError("no process left")

    monkeypatch.setattr(os, "fork", refused)
    open_before = len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else None
    work = Forked(os.getpid)
    assert not work.in_child and work.result() == os.getpid()
    if open_before is not None:
        assert len(os.listdir("/proc/self/fd")) == open_before  # the pipe's two ends were closed


def test_no_fork_while_another_thread_runs_nor_when_asked_not_to():
    calls = []
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        work = Forked(lambda: calls.append(os.getpid()) or len(calls))
        assert not work.in_child and calls == []  # done when asked for, here
    finally:
        stop.set()
        thread.join()
    assert work.result() == 1 and work.result() == 1 and calls == [os.getpid()]
    assert not Forked(lambda: 0, fork=False).in_child


def test_stop_kills_the_child_and_done_gives_the_result_without_the_work(forking):
    work = Forked(lambda: time.sleep(60))
    pid = work._pid
    work.stop()
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, 0)  # killed and reaped
    known = Forked(lambda: time.sleep(60))
    known.done("known")
    assert known.result() == "known" and not known.in_child
