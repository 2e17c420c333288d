"""The reproduction harness, run for real: worker processes on real jax, results in a real SQLite file."""

import re
import shutil
import textwrap
from pathlib import Path

import jax
import pytest
from click.testing import CliRunner
from sqlalchemy import func, select
from sqlalchemy.orm import Session
from versions import SEED_PATH, seed_line

from jax_errors.cli import cli
from jax_errors.crawler.installed import installed_jax_dir
from jax_errors.db.engine import copy_database, open_database
from jax_errors.db.models import Reproduction
from jax_errors.db.queries import (
    find_snapshot,
    latest_reproductions,
    reproduction_of,
    reproductions_for_error,
    site_at,
)
from jax_errors.reproduce.attribution import MAX_FRAMES, message_fits
from jax_errors.reproduce.case_runner import run_cases
from jax_errors.reproduce.cases import load_cases
from jax_errors.reproduce.frames import Frame, jax_frames

pytestmark = pytest.mark.slow

CASES = Path(__file__).parent.parent / "cases"
# Where the seed card's raise stands, per jax version this project may install.
TIMEOUT = 10.0


def write_case(folder: Path, name: str, trigger: str, *, expected: str = "TypeError",
               contains: str = "cannot reshape array", fixed: str = "return jnp.arange(6).reshape(2, 3)",
               error_id: str | None = None, former_ids: list[str] | None = None) -> None:
    error_line = f"ERROR_ID = {error_id!r}\n" if error_id else ""
    error_line += f"FORMER_ERROR_IDS = {former_ids!r}\n" if former_ids is not None else ""
    (folder / f"{name}.py").write_text(
        f'"""Test case {name}."""\n'
        "import os\nimport time\n\nimport jax\nimport jax.numpy as jnp\n\n"
        f"EXPECTED = {expected!r}\nTAGS = ['test']\nMESSAGE_CONTAINS = {contains!r}\n{error_line}\n\n"
        f"def trigger():\n{textwrap.indent(trigger, '    ')}\n\n\n"
        f"def fixed():\n{textwrap.indent(fixed, '    ')}\n"
    )


RESHAPE = "return jnp.arange(6).reshape(4)"


@pytest.fixture(scope="module")
def cases_dir(tmp_path_factory) -> Path:
    """Two real cases of the repo, and cases that hang, crash, raise nothing or the wrong thing."""
    folder = tmp_path_factory.mktemp("cases")
    for name in ("all_gather_reduced_not_varying", "jit_leaked_tracer"):
        shutil.copy(CASES / f"{name}.py", folder)
    write_case(folder, "reshape", RESHAPE)
    write_case(folder, "hangs", "time.sleep(1000)")
    write_case(folder, "aborts", "os.abort()")
    write_case(folder, "segfaults", "import ctypes\nreturn ctypes.string_at(0)")
    write_case(folder, "exits", "os._exit(3)")
    write_case(folder, "no_error", "return jnp.arange(6).reshape(2, 3)")
    write_case(folder, "wrong_class", RESHAPE, expected="ValueError")
    write_case(folder, "unresolved_class", RESHAPE, expected="jax.errors.NoSuchError")
    write_case(folder, "wrong_error_id", RESHAPE, error_id="0000000000000000")
    write_case(folder, "wrong_words", RESHAPE, contains="cannot squeeze")
    write_case(folder, "user_raise", "raise TypeError('cannot reshape array, says the user')")
    write_case(folder, "prints", "print('noise on stdout')\n" + RESHAPE, fixed="print('more noise')")
    write_case(folder, "fixed_fails", RESHAPE, fixed="return jnp.arange(6).reshape(5)")
    write_case(folder, "fixed_crashes", RESHAPE, fixed="os._exit(4)")
    (folder / "fails_to_load.py").write_text((folder / "reshape.py").read_text().replace(
        "import os\n", "import os\nfrom jax.numpy import no_such_function\n"))
    write_case(folder, "dataclass", "import dataclasses\n\n@dataclasses.dataclass\nclass P:\n    x: int\n\n"
               "P(1)\n" + RESHAPE)
    return folder


@pytest.fixture(scope="module")
def run_db(installed_db_path, tmp_path_factory) -> Path:
    """A copy of the session's crawl of the installed jax, for this module's runs to write to."""
    path = tmp_path_factory.mktemp("run") / "catalogue.db"
    copy_database(installed_db_path, path)
    return path


@pytest.fixture(scope="module")
def report(run_db, cases_dir):
    return run_cases(open_database(run_db), load_cases(cases_dir), jobs=2, timeout=TIMEOUT)


@pytest.fixture(scope="module")
def rows(report) -> dict[str, Reproduction]:
    return {row.case_name: row for row in report.results}


def test_seed_case_is_reproduced_at_its_raise_site(rows, run_db):
    row = rows["all_gather_reduced_not_varying"]
    path, line = SEED_PATH, seed_line()
    assert (row.status, row.path, row.lineno) == ("reproduced", path, line)
    assert row.detail is None
    with Session(open_database(run_db)) as session:
        snapshot = find_snapshot(session, f"jax-v{jax.__version__}")
        assert row.error_id == site_at(session, snapshot, path, line).error_id
        assert row.snapshot_id == snapshot.id
    assert row.observed_class == "ValueError"
    assert row.observed_message == "all_gather_reduced only accepts inputs that are varying. Got f32[4]"
    assert row.frames[-1] == {"file": path, "line": line,
                              "function": "_all_gather_reduced_effectful_abstract_eval"}
    assert all(frame["file"].startswith("jax/") for frame in row.frames)
    assert 0 < len(row.frames) <= 30
    assert row.fixed_ok and row.fixed_error is None
    assert row.jax_version == jax.__version__
    assert 0 < row.duration < TIMEOUT


def test_jax_errors_class_with_its_docs_link_is_reproduced(rows):
    row = rows["jit_leaked_tracer"]
    assert row.status == "reproduced"
    assert row.observed_class == "jax.errors.UnexpectedTracerError"
    # jax 0.12 moved the page under /101/: the link is told apart by its anchor.
    assert re.search(r"\nSee https://docs\.jax\.dev/en/latest/(101/)?errors\.html#jax\.errors\.UnexpectedTracerError$",
                     row.observed_message)
    assert row.path == "jax/_src/core.py"
    assert row.fixed_ok


def test_an_error_from_jax_with_the_right_class_and_words(rows):
    row = rows["reshape"]
    assert (row.status, row.path, row.observed_class) == ("reproduced", "jax/_src/numpy/array_methods.py", "TypeError")
    assert row.observed_message == "cannot reshape array of shape (6,) (size 6) into shape 4 (size 4)"


def test_a_hanging_case_is_killed_at_the_timeout(rows):
    row = rows["hangs"]
    assert row.status == "timeout"
    assert row.duration == TIMEOUT
    assert row.detail == f"trigger() ran longer than {TIMEOUT:g} s"
    assert not row.fixed_ok and row.observed_class is None


@pytest.mark.parametrize(("name", "how"), [
    ("aborts", "killed by SIGABRT"), ("segfaults", "killed by SIGSEGV"), ("exits", "exit status 3"),
])
def test_a_case_that_kills_the_interpreter_is_crashed(rows, name, how):
    row = rows[name]
    assert row.status == "crashed"
    assert row.observed_message.startswith(f"the worker died ({how})")
    assert row.duration < TIMEOUT
    assert not row.fixed_ok


def test_segfault_leaves_the_python_traceback(rows):
    assert "Fatal Python error: Segmentation fault" in rows["segfaults"].observed_message
    assert "in trigger" in rows["segfaults"].observed_message


def test_no_error(rows):
    row = rows["no_error"]
    assert (row.status, row.observed_class, row.frames, row.error_id) == ("no-error", None, [], None)
    assert row.fixed_ok


@pytest.mark.parametrize(("name", "detail"), [
    ("wrong_class", "raised TypeError, not EXPECTED ValueError"),
    ("unresolved_class", "EXPECTED 'jax.errors.NoSuchError' does not resolve"),
    ("wrong_error_id", "not ERROR_ID 0000000000000000"),
])
def test_wrong_site_keeps_the_site_it_found(rows, name, detail):
    row = rows[name]
    assert row.status == "wrong-site"
    assert detail in row.detail
    assert row.path == "jax/_src/numpy/array_methods.py" and row.error_id == rows["reshape"].error_id


def test_an_error_under_an_id_it_had_at_an_older_release_is_reproduced(tmp_path, rows, installed_db_path):
    """A case names the newest id and the ids the error had before: a run on an older jax still counts."""
    reshape_id = rows["reshape"].error_id
    db = tmp_path / "catalogue.db"
    copy_database(installed_db_path, db)
    write_case(tmp_path, "renamed", RESHAPE, error_id="0000000000000000", former_ids=[reshape_id])
    write_case(tmp_path, "other", RESHAPE, error_id="0000000000000000", former_ids=["1111111111111111"])
    found = {row.case_name: row for row in run_cases(open_database(db), load_cases(tmp_path), jobs=1,
                                                     timeout=TIMEOUT).results}
    assert (found["renamed"].status, found["renamed"].error_id) == ("reproduced", reshape_id)
    assert found["other"].status == "wrong-site"


def test_an_error_raised_outside_jax_is_wrong_site(rows):
    row = rows["user_raise"]
    assert (row.status, row.detail, row.error_id, row.frames) == (
        "wrong-site", "no traceback frame inside jax", None, [])


def test_a_case_file_that_raises_while_loading_is_wrong_site(rows):
    row = rows["fails_to_load"]
    assert (row.status, row.detail) == ("wrong-site", "the case file raised ImportError while loading")
    assert "no_such_function" in row.observed_message
    assert not row.fixed_ok and row.fixed_error == "the case file did not load"


def test_message_mismatch(rows):
    row = rows["wrong_words"]
    assert (row.status, row.detail) == ("message-mismatch", "the message does not contain MESSAGE_CONTAINS")
    assert row.error_id == rows["reshape"].error_id


def test_prints_do_not_disturb_the_protocol(rows):
    assert rows["prints"].status == "reproduced" and rows["prints"].fixed_ok


def test_a_case_module_is_a_real_module(rows):
    assert rows["dataclass"].status == "reproduced"  # dataclasses look the class's module up


def test_fixed_that_fails_or_crashes_is_recorded(rows):
    failed, crashed = rows["fixed_fails"], rows["fixed_crashes"]
    assert failed.status == crashed.status == "reproduced"
    assert not failed.fixed_ok and failed.fixed_error.startswith("TypeError: cannot reshape array")
    assert not crashed.fixed_ok and crashed.fixed_error.startswith("crashed: the worker died (exit status 4)")


def test_report_counts_and_rows_in_the_database(report, run_db, rows):
    assert report.counts() == {"reproduced": 7, "wrong-site": 5, "message-mismatch": 1, "no-error": 1,
                               "crashed": 3, "timeout": 1}
    assert report.summary().startswith(
        f"18 cases on jax {jax.__version__}: 7 reproduced, 5 wrong-site, 1 message-mismatch, "
        "1 no-error, 3 crashed, 1 timeout; ")
    with Session(open_database(run_db)) as session:
        assert [r.case_name for r in latest_reproductions(session)] == sorted(rows)
        seed = rows["all_gather_reduced_not_varying"]
        assert [r.case_name for r in reproductions_for_error(session, seed.error_id)] == [seed.case_name]
        assert reproduction_of(session, "no_error", jax.__version__).status == "no-error"


def test_rerun_replaces_the_row_and_startup_is_not_timed(tmp_path, installed_db_path):
    """A 0.5 s timeout is shorter than importing jax: it must count from the request, not the start."""
    db = tmp_path / "catalogue.db"
    copy_database(installed_db_path, db)
    write_case(tmp_path, "quick", RESHAPE)
    args = ["reproduce", "--case", "quick", "--cases-dir", str(tmp_path), "--timeout", "0.5", "--db", str(db)]
    first = CliRunner().invoke(cli, args)
    assert first.exit_code == 0, first.output
    assert first.output.splitlines()[-1].startswith(f"1 cases on jax {jax.__version__}: 1 reproduced; ")
    with Session(open_database(db)) as session:
        [before] = session.scalars(select(Reproduction)).all()
    write_case(tmp_path, "quick", "return jnp.ones(2)")
    second = CliRunner().invoke(cli, args)
    assert second.exit_code == 0, second.output
    assert "1 no-error" in second.output
    with Session(open_database(db)) as session:
        assert session.scalar(select(func.count()).select_from(Reproduction)) == 1
        after = reproduction_of(session, "quick", jax.__version__)
        assert after.status == "no-error" and after.ran_at > before.ran_at


def test_a_case_cannot_change_jax_config_for_the_next(tmp_path, installed_db_path):
    db = tmp_path / "catalogue.db"
    copy_database(installed_db_path, db)
    write_case(tmp_path, "a_sets_x64", 'jax.config.update("jax_enable_x64", True)\n' + RESHAPE)
    write_case(tmp_path, "b_checks_x64", "assert not jax.config.jax_enable_x64\nreturn jnp.ones(2)")
    report = run_cases(open_database(db), load_cases(tmp_path), jobs=1, timeout=TIMEOUT)
    assert [row.status for row in report.results] == ["reproduced", "no-error"]


def test_a_case_that_monkeypatches_jax_does_not_reach_the_next(tmp_path, installed_db_path):
    """The first case rebinds jnp.reshape; its worker is retired, and the next case gets a fresh one."""
    db = tmp_path / "catalogue.db"
    copy_database(installed_db_path, db)
    write_case(tmp_path, "a_patches", "jnp.reshape = lambda *a, **k: 0\n" + RESHAPE)
    write_case(tmp_path, "b_reshapes", "return jnp.reshape(jnp.arange(6), 4)")
    report = run_cases(open_database(db), load_cases(tmp_path), jobs=1, timeout=TIMEOUT)
    assert [(row.case_name, row.status) for row in report.results] == [
        ("a_patches", "reproduced"), ("b_reshapes", "reproduced")]


def test_a_case_writing_into_the_reply_pipe_is_a_crash_and_the_next_case_runs(tmp_path, installed_db_path):
    db = tmp_path / "catalogue.db"
    copy_database(installed_db_path, db)
    scribble = ("for fd in range(3, 64):\n"
                "    try:\n"
                "        os.write(fd, b'{\"not\": \"the protocol\"}\\n')\n"
                "    except OSError:\n"
                "        pass\n" + RESHAPE)
    write_case(tmp_path, "a_scribbles", scribble)
    write_case(tmp_path, "b_reshapes", RESHAPE)
    report = run_cases(open_database(db), load_cases(tmp_path), jobs=1, timeout=TIMEOUT)
    assert [(row.case_name, row.status) for row in report.results] == [
        ("a_scribbles", "crashed"), ("b_reshapes", "reproduced")]
    assert "not the protocol's" in report.results[0].observed_message


def test_reproduce_crawls_the_installed_jax_when_missing(tmp_path):
    write_case(tmp_path, "quick", RESHAPE)
    engine = open_database(tmp_path / "empty.db")
    report = run_cases(engine, load_cases(tmp_path), timeout=TIMEOUT)
    assert [row.status for row in report.results] == ["reproduced"]
    with Session(engine) as session:
        assert find_snapshot(session, f"jax-v{jax.__version__}") is not None


def test_jax_frames_are_repo_relative_and_capped():
    jax_dir = installed_jax_dir()
    frames = [Frame("/elsewhere/user.py", 3, "main")] + [
        Frame(str(jax_dir / "_src" / "api.py"), line, "f") for line in range(1, 41)]
    found = jax_frames(frames, jax_dir, limit=MAX_FRAMES)
    assert len(found) == MAX_FRAMES == 30
    assert found[-1].to_json() == {"file": "jax/_src/api.py", "line": 40, "function": "f"}


def test_message_fits_a_template_with_or_without_the_docs_link():
    parts = [["lit", "Encountered "], ["expr", "what"], ["lit", " tracer."]]
    assert message_fits("Encountered an unexpected tracer.", parts)
    assert message_fits("Encountered a\n  tracer.\nSee https://docs.jax.dev/en/latest/errors.html#x", parts)
    assert not message_fits("Encountered a tracer. And more.", parts)
    assert message_fits("anything at all", [])
