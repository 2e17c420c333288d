"""The CLI: thin, one-line errors, progress on stderr, the summary on stdout."""

import re

import pytest
from click.testing import CliRunner

from jax_errors.cli import cli


def run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def tagged_repo(git_repo):
    git_repo.commit({"jax/core.py": "def f(x):\n    raise ValueError(f'bad {x}')\n"}, "one", tag="jax-v0.0.1")
    git_repo.commit({"jax/core.py": "# moved\n\ndef f(x):\n    raise ValueError(f'bad {x}')\n"}, "two", tag="jax-v0.0.2")
    return git_repo


def test_crawl_releases_then_stats(git_repo, db_path):
    tagged_repo(git_repo)
    result = run("crawl", "--repo", git_repo.path, "--releases", "--db", db_path)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("jax-v0.0.1 (") and "1 files, 1 raise sites" in lines[0]
    assert "parsed 1 new blobs" in lines[1]
    stats = run("stats", "--db", db_path)
    assert [line.split()[0] for line in stats.stdout.splitlines()] == ["jax-v0.0.1", "jax-v0.0.2"]
    again = run("crawl", "--repo", git_repo.path, "--rev", "jax-v0.0.2", "--db", db_path)
    assert "already crawled" in again.stdout


def test_bad_rev_is_one_line_and_crawls_nothing(git_repo, db_path):
    tagged_repo(git_repo)
    result = run("crawl", "--repo", git_repo.path, "--rev", "jax-v0.0.1", "--rev", "nope", "--db", db_path)
    assert result.exit_code == 1
    assert result.stderr.strip() == f"Error: unknown revision 'nope' in {git_repo.path}"
    assert run("stats", "--db", db_path).stdout == ""


def test_non_git_folder_is_one_line(tmp_path, db_path):
    result = run("crawl", "--repo", tmp_path, "--db", db_path)
    assert result.exit_code == 1
    assert result.stderr.strip() == f"Error: not a git repository: {tmp_path}"


def test_rev_needs_repo(db_path):
    result = run("crawl", "--rev", "HEAD", "--db", db_path)
    assert result.exit_code == 2
    assert "--rev and --releases need --repo" in result.stderr


def test_corrupt_database_is_one_line(git_repo, db_path):
    tagged_repo(git_repo)
    db_path.write_text("garbage" * 200)
    result = run("crawl", "--repo", git_repo.path, "--db", db_path)
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1 and "file is not a database" in result.stderr


def test_db_commands(db_path):
    assert run("db", "upgrade", "--db", db_path).stdout.startswith("database at revision ")
    current = run("db", "current", "--db", db_path).stdout.split()
    assert current[1].rstrip(",") == current[3]


@pytest.mark.parametrize("url", [
    "postgresql://u:s3cret@127.0.0.1:1/x",  # a driver that is not installed
    "postgresql+psycopg://u:s3cret@127.0.0.1:1/x",  # nothing listens there
    "bogus://u:s3cret@host/x",  # no such dialect
    "post gres://u:s3cret@[::1/x",  # not a URL SQLAlchemy can parse
])
def test_a_database_password_is_never_printed(url):
    result = CliRunner().invoke(cli, ["stats", "--db", url])
    assert result.exit_code == 1 and "s3cret" not in result.output and "u:***@" in result.output
    assert result.output.startswith("Error: ") and result.output.count("\n") == 1


@pytest.mark.parametrize("command", [["stats"], ["lookup", "some message"], ["diff", "a", "b"], ["build"],
                                     ["triggers", "stats"]])
def test_a_reading_command_on_a_missing_catalogue_is_one_line_and_creates_nothing(tmp_path, command):
    missing = tmp_path / "typo.db"
    result = CliRunner().invoke(cli, [*command, "--db", str(missing)] + (["--out", str(tmp_path / "s")]
                                                                         if command == ["build"] else []))
    assert result.exit_code == 1 and f"no catalogue at {missing}" in result.output
    assert len(result.output.strip().splitlines()) == 1 and not missing.exists()


@pytest.mark.parametrize("force_color", [None, "1"])
def test_a_job_logs_its_progress_as_lines_when_stderr_is_no_terminal(git_repo, db_path, monkeypatch, force_color):
    if force_color:  # CI services set it, and rich then takes any stream for a terminal
        monkeypatch.setenv("FORCE_COLOR", force_color)
    tagged_repo(git_repo)
    result = run("crawl", "--repo", git_repo.path, "--releases", "--db", db_path)
    assert result.exit_code == 0, result.output
    # each snapshot's stage says once that it is done: its count, the time taken, what it was at
    done = [line for line in result.stderr.splitlines() if line.startswith("[")]
    assert [line.split(": ")[0] for line in done] == ["[1/2] jax-v0.0.1", "[2/2] jax-v0.0.2"], result.stderr
    assert all(re.fullmatch(r"\[\d/2\] jax-v0\.0\.\d: (\d+)/\1 \(0:0\d\).*", line) for line in done), done


def test_line_progress_speaks_every_interval_and_once_at_each_total():
    from jax_errors.progress import LineProgress

    now, lines = [100.0], []
    progress = LineProgress("crawl", lines.append, every=10, clock=lambda: now[0])
    for step in range(1, 31):  # a step a second, 30 of 40
        now[0] += 1
        progress(step, 40, f"file{step}.py")
    assert lines == ["crawl: 10/40 (0:10) file10.py", "crawl: 20/40 (0:20) file20.py",
                     "crawl: 30/40 (0:30) file30.py"]
    progress(40, 40, "")
    progress(40, 40, "")  # said once
    progress(3, 0, "")  # a total not known yet
    now[0] += 75
    progress(5, 0, "x" * 70)  # the last 60 characters of what it is at
    assert lines[3:] == ["crawl: 40/40 (0:30)", "crawl: 5/? (1:45) " + "x" * 60]
    # a next stage of the same total is said to be done too, and a count past the total once
    progress(0, 40, "")
    progress(40, 40, "")
    progress(41, 40, "")
    assert lines[5:] == ["crawl: 40/40 (1:45)"]
    progress(1, 1, "")  # a stage of one step at once
    progress(1, 1, "")
    progress(2, 2, "")
    assert lines[6:] == ["crawl: 1/1 (1:45)", "crawl: 2/2 (1:45)"]
