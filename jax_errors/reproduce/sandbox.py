"""Where jax-errors runs code it does not trust: a process in a group of its own, given a deadline, killed whole.

Reproduction workers and JAX's test files run this way: a case that hangs, forks or crashes costs
only its own process group. Every process jax-errors starts also dies with the one that started
it (Linux's parent-death signal), so a `kill -9` of a command leaves no worker behind.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import subprocess
from collections.abc import Sequence
from functools import cache
from typing import Any

_PR_SET_PDEATHSIG = 1


def spawn(command: Sequence[str], **popen: Any) -> subprocess.Popen:
    """Start `command` in a new session, so its threads and children can be killed with it."""
    return subprocess.Popen(command, start_new_session=True, preexec_fn=die_with_parent, **popen)


def die_with_parent() -> None:
    """Ask the kernel to kill this process when the thread that started it ends (Linux; elsewhere nothing).

    Runs in a child before it execs (`preexec_fn`) or as a process pool's initializer.
    """
    prctl = _prctl()
    if prctl is not None:
        prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


@cache
def _prctl():
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True).prctl
    except (OSError, AttributeError):
        return None


def kill_group(process: subprocess.Popen) -> int:
    """Kill the process's whole group, even when the process itself already ended; returns its exit status.

    A crashed worker's own children are still in its group, so the group is killed either way.
    """
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    return process.wait()


def wait_or_kill(process: subprocess.Popen, timeout: float) -> int | None:
    """The exit status once the process ends within `timeout` seconds; None when it had to be killed."""
    try:
        return process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        kill_group(process)
        return None


def tool_failure(command: Sequence[str], timeout: float) -> str | None:
    """Run a tool (pip, venv) to its end; None when it succeeded, else why not in a few words.

    Why: that it outlived `timeout` seconds, or the last line it wrote to stderr, past pip's
    warnings about unreachable find-links folders (its exit code when it wrote nothing else).
    """
    try:
        done = subprocess.run(list(command), capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return f"it took over {timeout:g} s"
    if done.returncode == 0:
        return None
    lines = [line.strip() for line in done.stderr.splitlines()
             if line.strip() and not line.startswith("WARNING: Location")]
    return lines[-1] if lines else f"exit code {done.returncode}"