"""Where jax-errors runs code it does not trust: a process in a group of its own, given a deadline, killed whole.

Reproduction workers and JAX's test files run this way: a case that hangs, forks or crashes costs
only its own process group.
"""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Sequence
from typing import Any


def spawn(command: Sequence[str], **popen: Any) -> subprocess.Popen:
    """Start `command` in a new session, so its threads and children can be killed with it."""
    return subprocess.Popen(command, start_new_session=True, **popen)


def kill_group(process: subprocess.Popen) -> int:
    """Kill the process's whole group, unless it already ended; returns its exit status."""
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return process.wait()


def wait_or_kill(process: subprocess.Popen, timeout: float) -> int | None:
    """The exit status once the process ends within `timeout` seconds; None when it had to be killed."""
    try:
        return process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        kill_group(process)
        return None
