"""Cases run on a jax release in its own environment, made once with venv and pip."""

import sys
from pathlib import Path

import jax
import pytest
from versions import SEED_ID, seed_line

from jax_errors.crawler.installed import installed_jax_dir
from jax_errors.db.engine import copy_database, open_database
from jax_errors.exceptions import WorkerError
from jax_errors.reproduce.case_runner import run_cases
from jax_errors.reproduce.cases import load_cases
from jax_errors.reproduce.environments import ensure_environment

pytestmark = pytest.mark.slow  # pip installs a jax and jaxlib (from pip's cache when the set-up installed them)


def test_a_release_runs_in_its_own_environment_made_once(tmp_path, installed_db_path, monkeypatch):
    monkeypatch.setenv("JAX_ERRORS_CACHE", str(tmp_path / "cache"))
    environment = ensure_environment(jax.__version__)
    assert environment.python.is_file() and environment.root != Path(sys.prefix)
    assert environment.jax_dir != installed_jax_dir() and (environment.jax_dir / "version.py").is_file()
    marker = environment.root / ".complete"
    made = marker.stat().st_mtime_ns
    assert ensure_environment(jax.__version__).root == environment.root and marker.stat().st_mtime_ns == made

    db = tmp_path / "catalogue.db"
    copy_database(installed_db_path, db)
    cases = load_cases("cases", ["all_gather_reduced_not_varying"])
    report = run_cases(open_database(db), cases, environment=environment)
    [row] = report.results
    assert (row.status, row.error_id, row.lineno, row.jax_version) == ("reproduced", SEED_ID, seed_line(),
                                                                       jax.__version__)
    assert all(frame["file"].startswith("jax/") for frame in row.frames)  # attributed in the environment's jax


def test_a_release_pip_cannot_install_is_one_line_and_leaves_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("JAX_ERRORS_CACHE", str(tmp_path / "cache"))
    with pytest.raises(WorkerError, match=r"^cannot install jax 0\.0\.404 and jaxlib 0\.0\.404 for Python 3\.\d+: ") \
            as info:
        ensure_environment("0.0.404")
    assert "\n" not in str(info.value)
    assert not (tmp_path / "cache" / "envs" / "jax-0.0.404").exists()
