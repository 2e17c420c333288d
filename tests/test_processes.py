"""A killed command leaves no process behind: parse workers and reproduction workers die with it."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).parent.parent
CLI = [sys.executable, "-c", "import sys; from jax_errors.cli import main; sys.argv[0] = 'jax-errors'; main()"]
HANGING_CASE = '''
"""Loops forever."""
EXPECTED = "ValueError"
TAGS = ["hang"]
MESSAGE_CONTAINS = "never"


def trigger():
    open(MARKER, "w").close()  # the worker is running the case now
    while True:
        pass


def fixed():
    return None
'''


def one_case(tmp_path: Path, name: str, text: str) -> tuple[Path, Path]:
    """A cases folder holding one case whose MARKER is a file it writes once it runs; (folder, marker)."""
    cases, marker = tmp_path / "cases", tmp_path / f"{name}.marker"
    cases.mkdir()
    (cases / f"{name}.py").write_text(text.replace("MARKER", repr(str(marker))))
    return cases, marker


def children_of(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def kill_when_children_start(command: list[str], *, count: int, env: dict, within: float = 120.0,
                             ready: Path | None = None) -> list[int]:
    """Start a command, wait until it has `count` children (and `ready` exists), SIGKILL it; return the children."""
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + within
    children: list[int] = []
    while time.monotonic() < deadline and process.poll() is None and (
            len(children) < count or ready is not None and not ready.exists()):
        time.sleep(0.05)
        children = children_of(process.pid)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    assert len(children) >= count, "the command ended before its workers started"
    return children


def wait_until_gone(pids: list[int], within: float = 15.0) -> list[int]:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline and any(alive(p) for p in pids):
        time.sleep(0.1)
    survivors = [p for p in pids if alive(p)]
    for pid in survivors:  # never leave them to the next test
        os.kill(pid, signal.SIGKILL)
    return survivors


def test_a_killed_crawl_leaves_no_parse_worker(git_repo, tmp_path):
    body = "".join(f"def f{i}(x):\n    if x > {i}:\n        raise ValueError(f'x is {{x}}, over {i}')\n"
                   for i in range(400))
    git_repo.commit({f"jax/m{n}.py": body for n in range(120)}, "many files to parse")
    env = {**os.environ, "JAX_ERRORS_POOL_THRESHOLD": "1"}
    command = [*CLI, "crawl", "--repo", str(git_repo.path), "--jobs", "2", "--db", str(tmp_path / "c.db")]
    workers = kill_when_children_start(command, count=2, env=env)
    assert wait_until_gone(workers) == []


@pytest.mark.slow  # a worker imports jax before the case runs
def test_a_killed_reproduce_leaves_no_worker(tmp_path):
    cases, marker = one_case(tmp_path, "hangs", HANGING_CASE)
    command = [*CLI, "reproduce", "--cases-dir", str(cases), "--jobs", "1", "--timeout", "600",
               "--db", str(tmp_path / "r.db")]
    workers = kill_when_children_start(command, count=1, env=dict(os.environ), ready=marker)
    assert wait_until_gone(workers) == []


FORKING_CASE = '''
"""Forks a child that sleeps, then dies."""
import os
import time

EXPECTED = "ValueError"
TAGS = ["crash"]
MESSAGE_CONTAINS = "never"


def trigger():
    child = os.fork()
    if child == 0:
        time.sleep(600)
        os._exit(0)
    with open(MARKER, "w") as marker:
        marker.write(str(child))
    os._exit(3)


def fixed():
    return None
'''


@pytest.mark.slow  # a worker imports jax before the case runs
def test_the_children_of_a_crashed_worker_die_with_it(tmp_path):
    from jax_errors.db.engine import open_database
    from jax_errors.reproduce.case_runner import run_cases
    from jax_errors.reproduce.cases import load_cases

    cases, marker = one_case(tmp_path, "forks", FORKING_CASE)
    # The child holds the worker's reply pipe open: the harness sees the worker end (its pidfd), not the pipe's.
    report = run_cases(open_database(tmp_path / "f.db"), load_cases(cases), timeout=120)
    assert [row.status for row in report.results] == ["crashed"]  # not "timeout"
    assert report.results[0].observed_message.startswith("the worker died (exit status 3)")
    assert wait_until_gone([int(marker.read_text())], within=5) == []
