"""Run JAX test files under the trigger plugin: a pytest subprocess per file, several side by side.

Each file runs only its asserting tests, in the harness's environment (8 CPU devices, traceback
filtering off). A file that outlives its timeout has its process group killed; one that crashes
is recorded with the end of its output. Either way, what the plugin wrote before is kept.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jax_errors.crawler.asserts import TestRef
from jax_errors.crawler.sources import SourceFile
from jax_errors.reproduce import pytest_plugin as plugin
from jax_errors.reproduce.environments import JaxEnvironment
from jax_errors.reproduce.pool import worker_environment
from jax_errors.reproduce.sandbox import spawn, wait_or_kill

FILE_TIMEOUT = float(os.environ.get("JAX_ERRORS_TRIGGERS_FILE_TIMEOUT", "900"))
TEST_TIMEOUT = float(os.environ.get("JAX_ERRORS_TRIGGERS_TEST_TIMEOUT", "120"))
# jtu's sample_product runs this many cases of a product of parameters (JAX's default is 10).
GENERATED_CASES = os.environ.get("JAX_ERRORS_TRIGGERS_GENERATED_CASES", "2")
# ... and of one parameterized test method at most this many cases run (shape_poly_test has thousands).
CASES_PER_TEST = os.environ.get("JAX_ERRORS_TRIGGERS_CASES_PER_TEST", "10")
OUTPUT_TAIL = 3000
PYTEST_CONFIG = "[pytest]\ntimeout = {test_timeout:g}\n"


@dataclass(frozen=True)
class FileRun:
    """What running one test file showed: its fate, the tests' outcomes and the plugin's records."""

    path: str
    status: str  # "ran", "no-tests", "error", "crashed", "timeout"
    exit_code: int | None
    selected: int
    seconds: float
    records: list[dict[str, Any]] = field(default_factory=list)
    detail: str | None = None

    def outcomes(self) -> dict[str, int]:
        counts = {"passed": 0, "failed": 0, "skipped": 0}
        for record in self.records:
            if record["kind"] == "test":
                counts[record["outcome"]] = counts.get(record["outcome"], 0) + 1
        return counts

    def caught(self) -> list[dict[str, Any]]:
        return [r for r in self.records if r["kind"] == "caught"]


def missing_test_modules(files: Iterable[SourceFile], package_dir: Path) -> list[SourceFile]:
    """The package's test-only modules (`*test_util*.py`) at the tests' commit that the installed wheel lacks."""
    root = package_dir.parent
    return [f for f in files if "test_util" in f.path.rpartition("/")[2] and not (root / f.path).exists()]


def export_files(files: Iterable[SourceFile], into: Path) -> list[str]:
    """Write files (read from git) under `into`; returns the paths whose bytes are not in the clone."""
    missing = []
    for file in files:
        target = into / file.path
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            target.write_bytes(file.read())
        except Exception:  # noqa: BLE001 - a blob left out of a partial clone is only missing data
            missing.append(file.path)
    return missing


def run_files(root: Path, selection: dict[str, Sequence[TestRef]], *, jobs: int = 1,
              timeout: float = FILE_TIMEOUT, test_timeout: float = TEST_TIMEOUT,
              overlay: Path | None = None, environment: JaxEnvironment | None = None) -> Iterator[FileRun]:
    """Run each file's selected tests, `jobs` files at a time; yields each file's run as it ends.

    Parameters:
        root: the folder holding the files (`root / path` for each path of `selection`).
        selection: per file path, the (class, method) pairs of the tests to run.
        timeout: seconds one file's process may run; `test_timeout`: one test (pytest-timeout).
        overlay: a folder of test-only modules of the jax package that the wheel leaves out.
        environment: another jax release's environment (with `ensure_test_tools`) to run them in.
    """
    with tempfile.TemporaryDirectory(prefix="jax-errors-triggers-") as scratch, \
            ThreadPoolExecutor(max_workers=max(1, jobs), thread_name_prefix="triggers") as executor:
        config = Path(scratch) / "pytest.ini"
        config.write_text(PYTEST_CONFIG.format(test_timeout=test_timeout))
        futures = [
            executor.submit(run_file, root, path, tests, scratch=Path(scratch), config=config, timeout=timeout,
                            overlay=overlay, environment=environment)
            for path, tests in selection.items()
        ]
        for future in as_completed(futures):
            yield future.result()


def run_file(root: Path, path: str, tests: Sequence[TestRef], *, scratch: Path, config: Path,
             timeout: float, overlay: Path | None = None, environment: JaxEnvironment | None = None) -> FileRun:
    """Run one test file's selected tests in a pytest subprocess, with the trigger plugin."""
    stem = path.replace("/", "__")
    out, select, log = (scratch / f"{stem}.{suffix}" for suffix in ("jsonl", "select.json", "log"))
    select.write_text(json.dumps({"tests": [list(t) for t in tests]}))
    env = trigger_environment(root, out=out, select=select, overlay=overlay,
                              pythonpath=environment.harness_path if environment else None)
    started = time.monotonic()
    with open(log, "wb") as output:
        process = spawn(
            pytest_command(root, path, config, python=environment.python if environment else None),
            cwd=root, env=env, stdin=subprocess.DEVNULL,
            stdout=output, stderr=subprocess.STDOUT,
        )
        code = wait_or_kill(process, timeout)
        status = "timeout" if code is None else _status(code)
    seconds = time.monotonic() - started
    detail = f"ran longer than {timeout:g} s" if status == "timeout" else None
    if status not in ("ran", "no-tests"):
        detail = _joined(detail, _tail(log))
    return FileRun(path, status, code, len(tests), seconds, _read_records(out), detail)


def pytest_command(root: Path, path: str, config: Path, *, python: Path | None = None) -> list[str]:
    return [
        str(python or sys.executable), "-m", "pytest", str(root / path), "-p", plugin.__name__, "-c", str(config),
        "--rootdir", str(root), "--import-mode=importlib", "-p", "no:cacheprovider", "-q", "-rN",
        "--disable-warnings",
    ]


def trigger_environment(root: Path, *, out: Path, select: Path, overlay: Path | None = None,
                        pythonpath: Path | None = None) -> dict[str, str]:
    """The harness's jax settings, plus where the plugin reads its selection and writes its records.

    `pythonpath`: a folder holding only the `jax_errors` package, for an environment without it.
    """
    env = {
        **worker_environment(pythonpath),
        "JAX_NUM_GENERATED_CASES": GENERATED_CASES,
        plugin.OUT_ENV: str(out), plugin.SELECT_ENV: str(select), plugin.ROOT_ENV: str(root.resolve()),
        plugin.CASES_ENV: CASES_PER_TEST,
    }
    if overlay is not None:
        env[plugin.OVERLAY_ENV] = str(overlay.resolve())
    return env


def _status(code: int) -> str:
    if code < 0:
        return "crashed"
    return {0: "ran", 1: "ran", 5: "no-tests"}.get(code, "error")


def _read_records(out: Path) -> list[dict[str, Any]]:
    if not out.exists():
        return []
    records = []
    for line in out.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            continue  # the last line of a killed run may be cut short
    return records


def _tail(log: Path) -> str:
    text = log.read_text(encoding="utf-8", errors="replace").strip()
    return text[-OUTPUT_TAIL:]


def _joined(*parts: str | None) -> str | None:
    return "\n".join(p for p in parts if p) or None

