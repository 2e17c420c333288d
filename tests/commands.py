"""Run `jax-errors` as a real process, stop or kill it at a named stage (`jax_errors.faults`), and check what it left."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from test_processes import alive

CLI = [sys.executable, "-c", "import sys; from jax_errors.cli import main; sys.argv[0] = 'jax-errors'; main()"]
WITHIN = 120.0  # how long a helper waits for a process to reach a state before the test fails


def environment(**extra: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key != "JAX_ERRORS_FAULT"}
    return {**env, **extra}


def run(*args: str, cwd: Path | None = None, **extra: str) -> subprocess.CompletedProcess:
    """Run `jax-errors ARGS` to its end; `extra` goes into its environment (`JAX_ERRORS_FAULT=...`)."""
    return subprocess.run([*CLI, *args], cwd=cwd, env=environment(**extra), capture_output=True, text=True,
                          timeout=600)


def ok(*args: str, cwd: Path | None = None, **extra: str) -> str:
    """Run `jax-errors ARGS`, which must succeed; its standard output."""
    done = run(*args, cwd=cwd, **extra)
    assert done.returncode == 0, f"jax-errors {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}"
    assert "Traceback" not in done.stderr, done.stderr
    return done.stdout


def killed_at(stage: str, *args: str, cwd: Path | None = None) -> None:
    """Run `jax-errors ARGS`, which must kill itself with SIGKILL at `stage`."""
    done = run(*args, cwd=cwd, JAX_ERRORS_FAULT=stage)
    assert done.returncode == -signal.SIGKILL, f"not killed at {stage}:\n{done.stdout}\n{done.stderr}"


def one_line_error(done: subprocess.CompletedProcess) -> str:
    """The one line a failed command printed (exit status 1, no traceback)."""
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    errors = [line for line in done.stderr.splitlines() if line.startswith("Error: ")]
    assert len(errors) == 1, done.stderr
    return errors[0]


def start(*args: str, stderr: Path, **extra: str) -> subprocess.Popen:
    """Start `jax-errors ARGS` in the background, its stderr into a file."""
    with open(stderr, "wb") as file:
        return subprocess.Popen([*CLI, *args], env=environment(**extra), stdout=subprocess.PIPE, stderr=file)


def wait_until(condition, what: str, *, process: subprocess.Popen | None = None) -> None:
    """Poll until `condition()` holds; fail if `process` ends first or WITHIN seconds pass."""
    deadline = time.monotonic() + WITHIN
    while not condition():
        if process is not None and process.poll() is not None:
            raise AssertionError(f"the process ended (status {process.returncode}) before {what}")
        if time.monotonic() > deadline:
            raise AssertionError(f"not {what} within {WITHIN:g} s")
        time.sleep(0.02)


def stopped(pid: int) -> bool:
    """Whether the process stopped itself (SIGSTOP, state T)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "T"
    except OSError:
        return False


def stopped_at(stage: str, *args: str, stderr: Path) -> subprocess.Popen:
    """Start `jax-errors ARGS` and wait until it stops itself at `stage`; SIGCONT it to go on."""
    process = start(*args, stderr=stderr, JAX_ERRORS_FAULT=f"{stage}:stop")
    wait_until(lambda: stopped(process.pid), f"stopped at {stage}", process=process)
    return process


def go_on(process: subprocess.Popen) -> str:
    """Let a stopped process go on to its end, which must be a success; its standard output."""
    os.kill(process.pid, signal.SIGCONT)
    out, _ = process.communicate(timeout=600)
    assert process.returncode == 0, out
    return out.decode()


def finish(process: subprocess.Popen) -> None:
    """Never leave a stopped process behind a failed test."""
    if alive(process.pid):
        process.kill()
    process.wait()


def integrity(db: Path) -> None:
    """The SQLite file passes its own checks: structure and foreign keys."""
    with sqlite3.connect(db) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert connection.execute("PRAGMA foreign_key_check").fetchall() == []


def snapshots(db: Path) -> list[str]:
    """The snapshot labels `jax-errors stats` lists, with their file and site counts."""
    return [" ".join(line.split()[:1] + line.split()[2:6]) for line in ok("stats", "--db", str(db)).splitlines()]
