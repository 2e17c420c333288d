"""The `jax-errors` command: a thin layer that parses flags, calls the library and prints."""

from __future__ import annotations

import os
from contextlib import contextmanager

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from jax_errors.db.engine import DEFAULT_DB, database_revisions, open_database, upgrade_database
from jax_errors.exceptions import JaxErrorsError

console = Console(stderr=True)


class JaxErrorsGroup(click.Group):
    """Turns every jax-errors error into a one-line message and exit status 1, in one place."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except JaxErrorsError as error:
            raise click.ClickException(str(error)) from error


def db_option(fn):
    return click.option(
        "--db", "db", default=DEFAULT_DB, envvar="JAX_ERRORS_DB", show_default=True,
        help="SQLite file or SQLAlchemy URL (postgresql+psycopg://...).",
    )(fn)


def jobs_option(fn):
    return click.option(
        "--jobs", "-j", type=click.IntRange(1), default=os.cpu_count() or 1, show_default=True,
        help="Worker processes.",
    )(fn)


@contextmanager
def progress_bar(description: str):
    """A rich progress bar; yields a `progress(done, total, what)` callback."""
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn(), TextColumn("[dim]{task.fields[what]}"))
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(description, total=None, what="")

        def update(done: int, total: int, what: str) -> None:
            bar.update(task, completed=done, total=total, what=what[-60:])

        yield update


@click.group(cls=JaxErrorsGroup)
@click.version_option(package_name="jax-errors")
def cli() -> None:
    """jax-errors: a verified, searchable catalogue of the errors JAX raises."""


@cli.command()
@click.option("--repo", type=click.Path(file_okay=False), envvar="JAX_ERRORS_JAX_REPO",
              help="A JAX git repository (bare or not); read without a checkout.")
@click.option("--rev", "revs", multiple=True, help="Commit, tag or branch to crawl (repeatable).")
@click.option("--releases", is_flag=True, help="Crawl every jax-v* release tag of --repo.")
@click.option("--installed", is_flag=True, help="Crawl the jax package installed in this environment.")
@click.option("--force", is_flag=True, help="Crawl again snapshots already in the database.")
@jobs_option
@db_option
def crawl(repo, revs, releases, installed, force, jobs, db) -> None:
    """Extract every raise site of JAX at pinned commits into the database.

    With no --repo, crawls the installed jax package (recording its version, tag and commit).
    With --repo and no --rev, crawls HEAD.
    """
    from jax_errors.crawler.checkout import JaxCheckout
    from jax_errors.crawler.crawl import crawl_snapshot
    from jax_errors.crawler.installed import installed_snapshot

    if (revs or releases) and not repo:
        raise click.UsageError("--rev and --releases need --repo")
    engine = open_database(db)
    snapshots = []
    if installed or not repo:
        snapshots.append(lambda: installed_snapshot())
    if repo:
        checkout = JaxCheckout(repo)
        wanted = list(revs) + (checkout.release_tags() if releases else [])
        if not wanted and not installed:
            wanted = ["HEAD"]
        for rev in wanted:
            checkout.commit(rev)  # fail on a bad rev before crawling anything
        snapshots.extend(lambda rev=rev: checkout.snapshot(rev) for rev in wanted)
    for index, load in enumerate(snapshots, 1):
        snapshot = load()
        with progress_bar(f"[{index}/{len(snapshots)}] {snapshot.label}") as progress:
            report = crawl_snapshot(engine, snapshot, force=force, jobs=jobs, progress=progress)
        click.echo(report.summary())
        for failure in report.parse_failures:
            click.echo(f"  does not parse: {failure}", err=True)


@cli.command()
@db_option
def stats(db) -> None:
    """Files, raise sites and rebuilt-template share of every crawled snapshot."""
    from jax_errors.db.queries import snapshot_stats

    for row in snapshot_stats(open_database(db)):
        click.echo(
            f"{row.label:<16} {row.commit[:10]}  {row.files:>5} files  {row.sites:>6} sites  "
            f"{row.complete_share:6.1%} templates fully rebuilt  {row.parse_failures} unparsable"
        )


@cli.group()
def db() -> None:
    """Manage the database schema (Alembic migrations)."""


@db.command("upgrade")
@click.option("--revision", default="head", show_default=True)
@db_option
def db_upgrade(revision, db) -> None:
    """Upgrade the database schema (done automatically on first use)."""
    click.echo(f"database at revision {upgrade_database(db, revision)}")


@db.command("current")
@db_option
def db_current(db) -> None:
    """Print the database's schema revision and the newest one."""
    current, head = database_revisions(db)
    click.echo(f"current {current}, head {head}")


def main() -> None:
    cli()
