"""The CLI: thin, one-line errors, progress on stderr, the summary on stdout."""

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
