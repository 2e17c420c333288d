"""Reproduction cases that attack the harness: a daemon that leaves the worker's group, 50 MB of output,
memory past the worker's limit. Each is recorded with a status, nothing is left running, and the run goes on."""

import os
import resource
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from test_processes import CLI, alive, wait_until_gone

from jax_errors.db.engine import copy_database, open_database
from jax_errors.reproduce.case_runner import run_cases
from jax_errors.reproduce.cases import load_cases
from jax_errors.reproduce.pool import STDERR_KEPT, STDERR_TAIL, Tail
from jax_errors.reproduce.sandbox import kill_group, spawn

TIMEOUT = 60.0
RESHAPE = "return jnp.arange(6).reshape(4)"


def write_case(folder: Path, name: str, trigger: str) -> None:
    """A case expecting the reshape TypeError, whose trigger() runs `trigger`."""
    (folder / f"{name}.py").write_text(
        f'"""Hostile case {name}."""\nimport os\nimport sys\nimport time\n\nimport jax.numpy as jnp\n'
        "import numpy as np\n\nEXPECTED = 'TypeError'\nTAGS = ['hostile']\n"
        "MESSAGE_CONTAINS = 'cannot reshape array'\n\n\n"
        f"def trigger():\n{textwrap.indent(textwrap.dedent(trigger).strip(), '    ')}\n\n\n"
        "def fixed():\n    return jnp.arange(6).reshape(2, 3)\n"
    )


@pytest.fixture
def run_db(installed_db_path, tmp_path) -> Path:
    path = tmp_path / "catalogue.db"
    copy_database(installed_db_path, path)
    return path


DAEMON = textwrap.dedent('''
    # A daemon's double fork: the grandchild leaves the worker's session and process group.
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            with open(MARKER, "w") as marker:
                marker.write(str(os.getpid()))
            time.sleep(600)
        os._exit(0)
    while not os.path.exists(MARKER) or not open(MARKER).read():
        time.sleep(0.01)
''')


@pytest.mark.slow  # workers import jax before the cases run
def test_a_daemon_a_case_starts_dies_with_the_run(tmp_path, run_db):
    marker = tmp_path / "daemon.pid"
    cases = tmp_path / "cases"
    cases.mkdir()
    write_case(cases, "a_daemon", DAEMON.replace("MARKER", repr(str(marker))) + RESHAPE)
    write_case(cases, "b_after", RESHAPE)
    report = run_cases(open_database(run_db), load_cases(cases), jobs=1, timeout=TIMEOUT)
    assert [(row.case_name, row.status) for row in report.results] == [
        ("a_daemon", "reproduced"), ("b_after", "reproduced")]
    daemon = int(marker.read_text())
    assert wait_until_gone([daemon], within=5) == [], "the daemon outlived the run"


NOISE = textwrap.dedent('''
    line = "x" * 99 + "\\n"
    for _ in range(500_000):  # 50 MB
        sys.stdout.write(line)
    sys.stdout.write("END OF NOISE\\n")
    sys.stdout.flush()
''')


@pytest.mark.slow
def test_a_case_printing_50_mb_is_cut_to_its_tail_and_the_run_goes_on(tmp_path, run_db):
    cases = tmp_path / "cases"
    cases.mkdir()
    write_case(cases, "a_prints_then_raises", NOISE + RESHAPE)
    write_case(cases, "b_prints_then_dies", NOISE + "os._exit(5)")
    write_case(cases, "c_after", RESHAPE)
    report = run_cases(open_database(run_db), load_cases(cases), jobs=1, timeout=TIMEOUT)
    rows = {row.case_name: row for row in report.results}
    assert [rows[name].status for name in sorted(rows)] == ["reproduced", "crashed", "reproduced"]
    died = rows["b_prints_then_dies"].observed_message
    assert died.startswith("the worker died (exit status 5):\n") and died.endswith("END OF NOISE")
    assert len(died) < STDERR_TAIL + 100


def test_a_worker_keeps_only_the_end_of_what_it_is_sent():
    """The harness's side of a worker's stderr: 50 MB through a pipe, 64 KB kept, the writer never blocked."""
    writer = subprocess.Popen([sys.executable, "-c", "import sys\nfor i in range(500_000):\n"
                               "    sys.stdout.write(f'{i:099d}\\n')\n"], stdout=subprocess.PIPE)
    tail = Tail(writer.stdout)
    assert writer.wait() == 0
    text = tail.text(ended=True)
    assert len(text.encode()) == STDERR_KEPT
    assert text.endswith(f"{499_999:099d}\n")


ALLOCATE = {
    "a_numpy": "np.ones(3 * 2**30, dtype=np.uint8)",
    "b_xla": "jnp.ones(3 * 2**30, dtype=jnp.uint8).block_until_ready()",
}


@pytest.mark.slow
def test_a_case_allocating_past_the_memory_limit_is_crashed_out_of_memory(tmp_path, run_db):
    """JAX_ERRORS_CASE_MEMORY_MB caps each worker's data segment; the case, not the machine, runs out."""
    cases = tmp_path / "cases"
    cases.mkdir()
    for name, allocation in ALLOCATE.items():
        write_case(cases, name, allocation + "\n" + RESHAPE)
    write_case(cases, "c_after", RESHAPE)
    env = {**os.environ, "JAX_ERRORS_CASE_MEMORY_MB": "2048"}
    done = subprocess.run([*CLI, "reproduce", "--cases-dir", str(cases), "--jobs", "1", "--timeout", str(TIMEOUT),
                           "--db", str(run_db)], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    statuses = {line.split()[1]: line.split()[0] for line in done.stdout.splitlines()[:3]}
    assert statuses == {"a_numpy": "crashed", "b_xla": "crashed", "c_after": "reproduced"}
    assert "out of memory: trigger() allocated past the worker's limit of 2,048 MiB" in done.stdout
    assert done.stdout.splitlines()[-1].startswith("3 cases on jax ")


def test_the_memory_limit_is_set_in_the_sandboxed_child_only():
    probe = "import resource; print(resource.getrlimit(resource.RLIMIT_DATA)[0])"
    limited = spawn([sys.executable, "-c", probe], memory_limit=2**30, stdout=subprocess.PIPE)
    assert limited.communicate()[0].strip() == str(2**30).encode()
    assert resource.getrlimit(resource.RLIMIT_DATA)[0] != 2**30


def test_killing_a_sandbox_kills_what_left_its_group():
    """A grandchild in a session of its own still carries the sandbox's token, and dies with the group."""
    script = ("import os, sys, time\nif os.fork() == 0:\n    os.setsid()\n    print(os.getpid(), flush=True)\n"
              "    time.sleep(600)\nelse:\n    time.sleep(600)\n")
    process = spawn([sys.executable, "-c", script], stdout=subprocess.PIPE)
    grandchild = int(process.stdout.readline())
    assert alive(grandchild) and os.getpgid(grandchild) != process.pid
    kill_group(process)
    process.stdout.close()
    assert wait_until_gone([grandchild], within=5) == []
