"""Where jax-errors runs code it does not trust: a process in a group of its own, given a deadline, killed whole.

Reproduction workers and JAX's test files run this way: a case that hangs, forks or crashes costs
only its own process group. Every process jax-errors starts also dies with the one that started
it (Linux's parent-death signal), so a `kill -9` of a command leaves no worker behind. A child
that leaves the group (`setsid`, a daemon's double fork) is still found when the group is
killed: every process started so carries a token in its environment, which its descendants
inherit, and whatever carries it, or descends from what does, is killed too.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import resource
import secrets
import signal
import subprocess
from collections.abc import Sequence
from functools import cache, partial
from pathlib import Path
from typing import Any

_PR_SET_PDEATHSIG = 1
SANDBOX_ENV = "JAX_ERRORS_SANDBOX"


def spawn(command: Sequence[str], *, memory_limit: int | None = None, **popen: Any) -> subprocess.Popen:
    """Start `command` in a new session, so its threads and children can be killed with it.

    Parameters:
        memory_limit: bytes its data segment may grow to (RLIMIT_DATA: the heap and private
            mappings); past it, an allocation fails (Python's MemoryError) instead of the machine
            running out. None: no limit.
        popen: `subprocess.Popen`'s other arguments; `env` gets the token `kill_group` looks for.
    """
    token = secrets.token_hex(8)
    env = {**(popen.pop("env", None) or os.environ), SANDBOX_ENV: token}
    process = subprocess.Popen(command, start_new_session=True, env=env,
                               preexec_fn=partial(_prepare_child, memory_limit), **popen)
    process.sandbox_token = token
    return process


def _prepare_child(memory_limit: int | None) -> None:
    die_with_parent()
    if memory_limit:
        _soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
        limit = memory_limit if hard == resource.RLIM_INFINITY else min(memory_limit, hard)
        resource.setrlimit(resource.RLIMIT_DATA, (limit, hard))


def die_with_parent() -> None:
    """Ask the kernel to kill this process when the thread that started it ends (Linux; elsewhere nothing).

    Runs in a child before it execs (`preexec_fn`) or as a process pool's initializer.
    """
    prctl = _prctl()
    if prctl is not None:
        prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


@cache
def _prctl():
    try:  # the C library the process runs on: naming it (find_library) would start ldconfig in a forked child
        return ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        pass
    try:
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True).prctl
    except (OSError, AttributeError):
        return None


def kill_group(process: subprocess.Popen) -> int:
    """Kill the process's whole group, even when the process itself already ended; returns its exit status.

    A crashed worker's own children are still in its group, so the group is killed either way;
    so are the processes that left it, carrying the token `spawn` gave it.
    """
    try:
        os.killpg(process.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    token = getattr(process, "sandbox_token", None)
    if token:
        kill_marked(token)
    return process.wait()


def kill_marked(token: str) -> int:
    """SIGKILL every process whose environment holds this sandbox token, and their descendants; how many.

    Again until a pass finds none new: a process may fork before its signal lands, and its child
    inherits the token (or, exec'd with an emptied environment, is still its parent's child).
    """
    killed: set[int] = set()
    while True:
        table = _processes(f"{SANDBOX_ENV}={token}".encode())
        doomed = {pid for pid, (_parent, marked) in table.items() if marked}
        grown = True
        while grown:
            more = {pid for pid, (parent, _marked) in table.items() if parent in doomed} - doomed
            doomed |= more
            grown = bool(more)
        new = doomed - killed - {os.getpid()}
        if not new:
            return len(killed)
        for pid in new:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        killed |= new


def _processes(mark: bytes) -> dict[int, tuple[int, bool]]:
    """Every live process that can be read: its parent, and whether its environment holds `mark`."""
    table = {}
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else ():
        if not entry.isdigit():
            continue
        try:
            state, parent = Path(f"/proc/{entry}/stat").read_bytes().rsplit(b")", 1)[1].split()[:2]
            environ = Path(f"/proc/{entry}/environ").read_bytes()
        except (OSError, ValueError):
            continue  # gone meanwhile, or another user's
        if state != b"Z":
            table[int(entry)] = (int(parent), mark in environ.split(b"\0"))
    return table


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