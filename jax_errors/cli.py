"""The `jax-errors` command: a thin layer that parses flags, calls the library and prints."""

from __future__ import annotations

import os
import sys
import time
from contextlib import contextmanager

import click

from jax_errors.db.location import DEFAULT_DB, is_url
from jax_errors.exceptions import JaxErrorsError
from jax_errors.progress import LineProgress
from jax_errors.snapshots import short_commit

# Imports stay inside the commands that need them: `lookup` and `--help` load neither SQLAlchemy nor rich.


class JaxErrorsGroup(click.Group):
    """Turns every jax-errors error into a one-line message and exit status 1, in one place."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except JaxErrorsError as error:
            raise click.ClickException(str(error)) from error
        except Exception as error:
            if "sqlalchemy" in sys.modules:  # a bug or a broken database: still one line
                import sqlalchemy.exc

                from jax_errors.db.engine import error_line
                if isinstance(error, sqlalchemy.exc.SQLAlchemyError):
                    raise click.ClickException(f"database error: {error_line(error)}") from error
            raise


def open_database(db: str):
    """The migrated catalogue at `db` (see `db.engine.open_database`)."""
    from jax_errors.db.engine import open_database as open_engine

    return open_engine(db)


def existing_catalogue(db: str) -> str:
    """`db` for a command that only reads: a mistyped SQLite path is one line, not a new empty catalogue."""
    if not is_url(db) and not os.path.exists(db):
        raise click.ClickException(f"no catalogue at {db}: make one with `jax-errors crawl --db {db}`")
    return db


def console():
    from rich.console import Console

    return Console(stderr=True)


def db_option(fn):
    return click.option(
        "--db", "db", default=DEFAULT_DB, envvar="JAX_ERRORS_DB", show_default=True,
        help="SQLite file or SQLAlchemy URL (postgresql+psycopg://...).",
    )(fn)


def base_url_option(fn):
    return click.option(
        "--base-url", metavar="URL",
        help="Where the site will be published: recorded in api/explain.json, `explain` links cards under it "
             "(default: card paths).",
    )(fn)


def report_url_option(fn):
    return click.option(
        "--report-url", metavar="TEMPLATE", envvar="JAX_ERRORS_REPORT_URL", callback=_check_report_url,
        help="Where each card's \"Report a problem with this card\" leads, with {id} and {title} filled in, e.g. "
             "https://github.com/OWNER/REPO/issues/new?title={title}&body=Card+{id} [env JAX_ERRORS_REPORT_URL; "
             "default: no such link].",
    )(fn)


def _check_report_url(ctx, param, value):
    from jax_errors.site_gen.links import report_link

    try:
        report_link(value, "0" * 16, "title")
    except (KeyError, ValueError, IndexError) as error:
        raise click.BadParameter(f"{value!r} is not a URL template with only {{id}} and {{title}} ({error!r})")
    return value


def jobs_option(fn):
    return click.option(
        "--jobs", "-j", type=click.IntRange(1), default=os.cpu_count() or 1, show_default=True,
        help="Worker processes.",
    )(fn)


@contextmanager
def progress_bar(description: str):
    """A rich progress bar; yields a `progress(done, total, what)` callback. On stderr that is no terminal (a log),
    lines of text instead (`LineProgress`)."""
    if not stderr_is_terminal():
        yield LineProgress(description, lambda line: click.echo(line, err=True))
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn(), TextColumn("[dim]{task.fields[what]}"))
    # Redrawn from the job's own updates, a few times a second, not by rich's refresh thread: a job in a
    # process of one thread may fork to use the second core (see `forked`).
    with Progress(*columns, console=console(), transient=True, auto_refresh=False) as bar:
        task = bar.add_task(description, total=None, what="")
        drawn = 0.0

        def update(done: int, total: int, what: str) -> None:
            nonlocal drawn
            bar.update(task, completed=done, total=total, what=what[-60:])
            if time.monotonic() - drawn >= 0.1 or done == total:
                bar.refresh()
                drawn = time.monotonic()

        yield update


def stderr_is_terminal() -> bool:
    """Whether stderr is a terminal, where a bar can be redrawn: asked of the stream, since rich takes
    FORCE_COLOR, which CI services set, for a terminal."""
    return getattr(sys.stderr, "isatty", lambda: False)()


@contextmanager
def working_on(what: str):
    """A spinner saying what one long step is doing; on stderr that is no terminal, one line."""
    if not stderr_is_terminal():
        click.echo(f"{what}…", err=True)
        yield
        return
    with console().status(what):
        yield


def waiting_notice(db: str):
    """What a writer says when another process is writing the database: it waits for it (see `begin_writing`)."""
    return lambda: click.echo(f"waiting for another process to finish writing {db}…", err=True)


def _one_line(text: str, width: int = 100) -> str:
    folded = " ".join(text.split())
    return folded if len(folded) <= width else folded[:width - 1] + "…"


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
@click.option("--pypi", "pypi_versions", multiple=True, metavar="VERSION",
              help="Crawl this jax release from its wheel on the package index (repeatable).")
@click.option("--pypi-all", is_flag=True, help="Crawl every jax release on the package index (0.0 on).")
@click.option("--force", is_flag=True, help="Crawl again snapshots already in the database.")
@click.option("--history", is_flag=True,
              help="Crawl every first-parent commit of --rev (default HEAD) of --repo: when each error came and went.")
@click.option("--since", metavar="REV", help="With --history, the first commit to crawl [default: the root].")
@jobs_option
@db_option
def crawl(repo, revs, releases, installed, pypi_versions, pypi_all, force, history, since, jobs, db) -> None:
    """Extract every raise site of JAX at pinned commits into the database.

    With no --repo and no --pypi, crawls the installed jax package (recording its version, tag and
    commit). With --repo and no --rev, crawls HEAD. --pypi and --pypi-all download each release's
    wheel once (pip, no dependencies; the source archive of releases without one) into
    $JAX_ERRORS_CACHE/wheels, from the index at $JAX_ERRORS_INDEX_URL (default PyPI), and date
    it by its upload, or by --repo when the clone has its commit.

    --history reads each distinct blob once and stores, per error, the spans of commits that raise
    it and what each commit did to it. Stopped, it keeps every commit it finished; run it again to
    go on, or later to add the commits the branch gained.

    Example: jax-errors crawl --pypi 0.12.0.1 --pypi 0.12.1
    """
    if history:
        _crawl_history(repo, revs, since, jobs, db)
        return
    from jax_errors.crawler.crawl import crawl_snapshot, date_undated_snapshots
    from jax_errors.crawler.installed import installed_snapshot
    from jax_errors.crawler.releases import (
        fetch_releases,
        list_releases,
        release_snapshot,
        select_releases,
        upload_dates,
    )
    from jax_errors.crawler.repository import JaxRepository

    if (revs or releases) and not repo:
        raise click.UsageError("--rev and --releases need --repo")
    engine = open_database(db)
    snapshots = []
    repository = JaxRepository(repo) if repo else None
    if pypi_versions or pypi_all:
        wanted_releases = select_releases(list_releases(), list(pypi_versions), every=pypi_all)
        with progress_bar(f"downloading {len(wanted_releases)} jax releases") as progress:
            files = fetch_releases(wanted_releases, progress=progress)
        for release, file in zip(wanted_releases, files):
            snapshots.append(lambda release=release, file=file: release_snapshot(release, file, clone=repository))
    if installed or not (repo or pypi_versions or pypi_all):
        snapshots.append(lambda: installed_snapshot())
    if repository is not None:
        wanted = list(revs) + (repository.release_tags() if releases else [])
        if not wanted and not installed:
            wanted = ["HEAD"]
        for rev in wanted:
            repository.commit(rev)  # fail on a bad rev before crawling anything
        snapshots.extend(lambda rev=rev: repository.snapshot(rev) for rev in wanted)
    for index, load in enumerate(snapshots, 1):
        snapshot = load()
        with progress_bar(f"[{index}/{len(snapshots)}] {snapshot.label}") as progress:
            report = crawl_snapshot(engine, snapshot, force=force, jobs=jobs, progress=progress,
                                    waiting=waiting_notice(db))
        click.echo(report.summary())
        for failure in report.parse_failures:
            click.echo(f"  does not parse: {failure}", err=True)
    if repository is not None:
        date_undated_snapshots(engine, lambda row: repository.commit_date(row.commit))
        repository.close()
    date_undated_snapshots(engine, upload_dates())  # what no clone dates: releases by their upload


def _crawl_history(repo, revs, since, jobs, db) -> None:
    from jax_errors.crawler.history import crawl_history
    from jax_errors.crawler.repository import JaxRepository

    if not repo or len(revs) > 1:
        raise click.UsageError("--history needs --repo, and one --rev at most")
    engine = open_database(db)
    with JaxRepository(repo) as repository, progress_bar(f"history of {revs[0] if revs else 'HEAD'}") as progress:
        report = crawl_history(engine, repository, revs[0] if revs else "HEAD", since=since, jobs=jobs,
                               progress=progress, waiting=waiting_notice(db))
    click.echo(report.summary())


@cli.command()
@click.option("--repo", type=click.Path(file_okay=False), envvar="JAX_ERRORS_JAX_REPO", required=True,
              help="The JAX git repository to follow.")
@click.option("--rev", default="main", show_default=True, help="Branch (or commit) to bring up to date.")
@click.option("--limit", type=click.IntRange(1), default=100, show_default=True,
              help="Crawl at most this many of the newest uncrawled commits.")
@click.option("--cases-dir", type=click.Path(file_okay=False), default="cases", show_default=True,
              help="Reproduction cases; those whose raise site changed run again on the new commit.")
@click.option("--no-reproduce", is_flag=True, help="Do not re-run any case.")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), envvar="JAX_ERRORS_CASE_TIMEOUT",
              help="Seconds one case may run before its worker is killed [default: 120].")
@click.option("--site", "site_out", type=click.Path(file_okay=False),
              help="Also rebuild the site in this folder, rewriting only the pages that changed.")
@click.option("--knowledge", "knowledge_dir", type=click.Path(file_okay=False), default="knowledge",
              show_default=True, help="Curated knowledge for the site (with --site).")
@click.option("--fold-commit-snapshots", is_flag=True,
              help="With a history line: crawl only the newest commit, and fold older commit snapshots nothing "
                   "cites into the history.")
@base_url_option
@report_url_option
@jobs_option
@db_option
def refresh(repo, rev, limit, cases_dir, no_reproduce, timeout, site_out, knowledge_dir, fold_commit_snapshots,
            base_url, report_url, jobs, db) -> None:
    """Crawl only the commits of --rev not crawled yet, re-run the cases they touch, and summarise.

    Only changed blobs are parsed; the cases whose raise site changed run again on the newest
    commit's jax source (over the installed jaxlib); with --site only changed pages are rewritten.
    The summary line counts errors added, removed and reworded since the snapshot crawled before.

    A catalogue with a first-parent history (crawl --history) has it extended. With
    --fold-commit-snapshots it crawls the newest commit alone as a snapshot, and folds the snapshots
    of older commits of the line that nothing cites any more into the history: each refresh then
    costs the same, however many came before.

    Example: jax-errors refresh --repo ../jax --rev main --site _site
    """
    from pathlib import Path

    from jax_errors.crawler.refresh import refresh as refresh_catalogue
    from jax_errors.crawler.repository import JaxRepository
    from jax_errors.reproduce.cases import load_cases
    from jax_errors.site_gen.build import SiteConfig

    cases = load_cases(cases_dir) if not no_reproduce and Path(cases_dir).is_dir() else []
    site = SiteConfig(out=Path(site_out), knowledge_dir=Path(knowledge_dir), cases_dir=Path(cases_dir),
                      base_url=base_url, report_url=report_url) if site_out else None
    engine = open_database(db)
    with JaxRepository(repo) as repository, progress_bar(f"refresh {rev}") as progress:
        report = refresh_catalogue(engine, repository, rev, limit=limit, jobs=jobs, progress=progress,
                                   cases=cases, timeout=timeout, site=site, waiting=waiting_notice(db),
                                   fold=fold_commit_snapshots)
    click.echo(report.summary())


@cli.command()
@click.argument("old")
@click.argument("new")
@click.option("--full", is_flag=True, help="List every error, not only the counts and the first few.")
@db_option
def diff(old, new, full, db) -> None:
    """Errors added, removed, moved and reworded between two crawled snapshots (tag, version or commit).

    Moved: the same class and words raised from another function or file. Reworded: the same class
    in the same function (or file) with alike words.

    Example: jax-errors diff jax-v0.12.0.1 jax-v0.12.1
    """
    from sqlalchemy.orm import Session

    from jax_errors.db.history import diff_snapshots
    from jax_errors.db.queries import require_snapshot

    with Session(open_database(existing_catalogue(db))) as session:
        result = diff_snapshots(session, require_snapshot(session, old), require_snapshot(session, new))
        click.echo(result.summary())
        shown = None if full else 10
        for heading, infos in (("added", result.added), ("removed", result.removed)):
            for info in infos[:shown]:
                click.echo(f"  {heading:<8} {info.error_id} {info.path} {info.exc}: {_one_line(info.template)}")
        for old_info, new_info in result.moved[:shown]:
            click.echo(f"  moved    {old_info.error_id} -> {new_info.error_id} {new_info.exc}: "
                       f"{_one_line(new_info.template, 60)}")
            click.echo(f"           - {old_info.path} {old_info.qualname}")
            click.echo(f"           + {new_info.path} {new_info.qualname}")
        for old_info, new_info in result.reworded[:shown]:
            click.echo(f"  reworded {old_info.error_id} -> {new_info.error_id} {new_info.path}")
            click.echo(f"           - {_one_line(old_info.template)}")
            click.echo(f"           + {_one_line(new_info.template)}")


@cli.command()
@click.argument("message", required=False)
@click.option("--limit", type=click.IntRange(1), default=3, show_default=True, help="How many cards to show.")
@click.option("--json", "as_json", is_flag=True, help="Print the matches as JSON.")
@db_option
def lookup(message, limit, as_json, db) -> None:
    """Find the card(s) for an error MESSAGE, or for a traceback pasted on stdin.

    Templates of every crawled snapshot are tried as regexes first (0.9-1.0 for a long template);
    reworded messages fall back to fuzzy matching (below 0.9). A wording no longer raised leads to
    the error it became. Sites raising the same message give one result. Below 0.6: no card. A
    traceback's exception class and jax frames refine the ranking. A message saying a module or a
    name of one is missing gets what the crawled releases say of it (when it came or went). The index
    is stored beside a SQLite database and rebuilt when the database changes.

    Example: jax-errors lookup "all_gather_reduced only accepts inputs that are varying. Got f32[4]"
    """
    import json

    from jax_errors.lookup.index import HELD, REMOVED_NAME, parse_query, unquoted
    from jax_errors.lookup.origin import no_card_verdict
    from jax_errors.lookup.said import shown_words
    from jax_errors.lookup.stored import stored_index

    text = message if message is not None else sys.stdin.read()
    if not text.strip():
        raise click.UsageError("give a MESSAGE or paste a traceback on stdin")
    query = parse_query(text)
    index = stored_index(existing_catalogue(db))
    matches = index.lookup(query, limit=limit)
    verdict = None if matches else no_card_verdict(query)
    releases_say = index.name_said(query)
    if as_json:
        click.echo(json.dumps({"verdict": verdict, "releases_say": releases_say, "matches": [
            {"error_id": m.entry.error_id, "score": m.score, "confidence": m.confidence, "how": m.how,
             "exception": m.entry.exc_class, "template": m.entry.template.text, "path": m.entry.path,
             "line": m.entry.lineno, "snapshot": m.entry.snapshot, "worded_until": m.worded_until,
             "removed_after": m.removed_after, "sites": [s.error_id for s in m.sites]} for m in matches
        ]}, indent=2))
        return
    if verdict:
        click.echo(verdict)
    if releases_say:
        click.echo(releases_say)
    for m in matches:
        click.echo(f"{m.score:.3f} {m.confidence:<6} {m.how:<14} {m.entry.error_id} {m.entry.exc_class} "
                   f"{m.entry.path}:{m.entry.lineno} ({m.entry.snapshot})")
        click.echo(f"      {_one_line(m.entry.template.text)}")
        if m.worded_until:
            click.echo(f"      worded so up to {m.worded_until}: {_one_line(m.matched.template.text, 80)}")
        if m.how == REMOVED_NAME:
            click.echo("      a name its module removed: what the module said when it was read")
        if m.how == HELD:
            click.echo("      the message a removed raise added words to: what raises it today")
        if m.removed_after:
            click.echo(f"      no longer raised after {m.removed_after}")
        if m.sites:
            others = ", ".join(f"{s.path}:{s.lineno}" for s in m.sites if s is not m.entry)
            click.echo(f"      raised at {len(m.sites)} sites; also {others}")
            if words := shown_words(m.entry, unquoted(query.message)):
                click.echo(f"      this site's own words: {words!r}")


@cli.command()
@click.argument("query", metavar="ID_OR_MESSAGE", required=False)
@click.option("--index", metavar="PATH_OR_URL",
              help="An api/explain.json of a built site (its folder, or an http(s) URL fetched once) "
                   "[env JAX_ERRORS_EXPLAIN_INDEX; default: the settings file's, else the database].")
@click.option("--db", help="SQLite file or SQLAlchemy URL, read when no index is given "
                           "[env JAX_ERRORS_DB; default: the settings file's, else jax_errors.db].")
@click.option("--base-url", metavar="URL", help="Where the cards' links point "
                                                "[env JAX_ERRORS_BASE_URL; default: the index's own].")
@click.option("--knowledge", "knowledge_dir", type=click.Path(file_okay=False),
              help="Curated knowledge shown with a database [default: knowledge].")
@click.option("--cases", "cases_dir", type=click.Path(file_okay=False),
              help="Reproduction cases whose fix a database's cards show [default: cases].")
@click.option("--limit", type=click.IntRange(1), default=3, show_default=True,
              help="Cards looked up; the best is shown whole, the others in a line each.")
def explain(query, index, db, base_url, knowledge_dir, cases_dir, limit) -> None:
    """Show the whole card for an error id, a MESSAGE, or a traceback pasted on stdin, like `rustc --explain`.

    The message, what it means, the solutions, the example fix and the card's link. Cards are read
    from a built site's api/explain.json or from the database (see README, "Use it where the error
    happens", for the settings file).

    Example: jax-errors explain 252d5ba9437acc7a
    """
    from rich.console import Console

    from jax_errors.explainer.api import explain as explain_error
    from jax_errors.explainer.api import releases_say
    from jax_errors.explainer.settings import read_settings
    from jax_errors.explainer.terminal import print_card
    from jax_errors.lookup.index import parse_query
    from jax_errors.lookup.origin import no_card_verdict

    text = query if query is not None else sys.stdin.read()
    if not text.strip():
        raise click.UsageError("give an error id or a MESSAGE, or paste a traceback on stdin")
    settings = read_settings(index=index, db=db, base_url=base_url, knowledge=knowledge_dir, cases=cases_dir)
    found = explain_error(text, limit=limit, settings=settings)
    if said := releases_say(text, settings=settings):
        click.echo(said)
    if not found:
        click.echo(no_card_verdict(parse_query(text)))
        return
    print_card(Console(), found[0], found[1:])


@cli.command()
@db_option
def stats(db) -> None:
    """Files, raise sites and rebuilt-template share of every crawled snapshot.

    Example: jax-errors stats --db jax_errors.db
    """
    from jax_errors.db.queries import snapshot_stats

    for row in snapshot_stats(open_database(existing_catalogue(db))):
        click.echo(
            f"{row.label:<16} {short_commit(row.commit):<10}  {row.files:>5} files  {row.sites:>6} sites  "
            f"{row.complete_share:6.1%} templates fully rebuilt  {row.parse_failures} unparsable"
        )


@cli.group()
def db() -> None:
    """Manage the database schema (Alembic migrations).

    Example: jax-errors db current
    """


@db.command("upgrade")
@click.option("--revision", default="head", show_default=True)
@db_option
def db_upgrade(revision, db) -> None:
    """Upgrade the database schema (done automatically on first use); a failed migration changes nothing.

    Example: jax-errors db upgrade --db jax_errors.db
    """
    from jax_errors.db.engine import upgrade_database

    click.echo(f"database at revision {upgrade_database(db, revision)}")


@db.command("downgrade")
@click.option("--revision", required=True, help="The revision to go back to (`base`: an empty schema).")
@click.option("--yes", is_flag=True, help="Go ahead: later migrations' tables, and their data, are dropped.")
@db_option
def db_downgrade(revision, yes, db) -> None:
    """Downgrade the database schema to --revision, dropping what later migrations added.

    Example: jax-errors db downgrade --revision base --yes --db scratch.db
    """
    if not yes:
        raise click.UsageError("downgrading drops tables and the data in them; pass --yes to go ahead")
    from jax_errors.db.engine import downgrade_database

    click.echo(f"database at revision {downgrade_database(db, revision)}")


@db.command("current")
@db_option
def db_current(db) -> None:
    """Print the database's schema revision and the newest one.

    Example: jax-errors db current --db jax_errors.db
    """
    from jax_errors.db.engine import database_revisions

    current, head = database_revisions(db)
    click.echo(f"current {current}, head {head}")


@cli.command()
@click.option("--case", "names", multiple=True, help="Run only this case (repeatable); default: every case.")
@click.option("--cases-dir", type=click.Path(exists=True, file_okay=False), default="cases", show_default=True,
              help="Folder of case files.")
@jobs_option
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), envvar="JAX_ERRORS_CASE_TIMEOUT",
              help="Seconds one case may run before its worker is killed [default: 120].")
@click.option("--jax", "versions", multiple=True, metavar="VERSION",
              help="Run on this jax release instead of the installed one (repeatable), in its own environment.")
@db_option
def reproduce(names, cases_dir, jobs, timeout, versions, db) -> None:
    """Run reproduction cases on the installed jax and attribute each error to its raise site.

    Each case runs in a worker process (8 virtual CPU devices, traceback filtering off). Results
    replace the earlier run of the same case on the same jax version. With --jax, each release
    runs in its own environment, made once with venv and pip under $JAX_ERRORS_CACHE/envs.

    Example: jax-errors reproduce --jax 0.12.0.1 --jax 0.12.1
    """
    from jax_errors.reproduce.case_runner import run_cases
    from jax_errors.reproduce.cases import load_cases
    from jax_errors.reproduce.environments import ensure_environment

    skipped: list = []
    cases = load_cases(cases_dir, names or None, skipped=skipped)
    for problem in skipped:
        click.echo(f"  skipped: {problem}", err=True)
    engine = open_database(db)
    for version in versions or [None]:
        environment = None
        if version is not None:
            with working_on(f"making the environment of jax {version} (once)"):
                environment = ensure_environment(version)
        with progress_bar(f"reproduce {len(cases)} cases" + (f" on jax {version}" if version else "")) as progress:
            report = run_cases(engine, cases, jobs=jobs, timeout=timeout, progress=progress, environment=environment)
        for row in report.results:
            where = f"{row.path}:{row.lineno} {row.error_id}" if row.path else (row.detail or "")
            fixed = "" if row.fixed_ok else "  fixed() failed"
            click.echo(f"{row.status:<16} {row.case_name:<48} {where}{fixed}")
        click.echo(report.summary())
    if skipped:
        raise click.ClickException(f"{len(skipped)} case files could not be read; the others ran (see above)")


@cli.command()
@click.option("--out", type=click.Path(file_okay=False), default="_site", show_default=True,
              help="Folder to write the site into (an earlier build there is updated in place).")
@click.option("--knowledge", "knowledge_dir", type=click.Path(file_okay=False), default="knowledge",
              show_default=True, help="Folder of curated knowledge files.")
@click.option("--cases", "cases_dir", type=click.Path(file_okay=False), default="cases", show_default=True,
              help="Folder of reproduction cases (their trigger/fixed bodies are the example fixes).")
@click.option("--no-search", is_flag=True, help="Skip the Pagefind search index.")
@click.option("--full", is_flag=True, help="Render every page, even those an earlier build left unchanged.")
@base_url_option
@report_url_option
@db_option
def build(out, knowledge_dir, cases_dir, no_search, full, base_url, report_url, db) -> None:
    """Render the catalogue into a static site: a card per error, index pages, JSON and search.

    Over an earlier build, only cards whose data changed are rendered and only changed files
    written; the result is the same bytes as a full build. api/explain.json is the index that
    `jax_errors.explain`, its hooks and `jax-errors explain` read, with --base-url recorded.

    Example: jax-errors build --out _site --base-url https://example.org/jax-errors/
    """
    from pathlib import Path

    from jax_errors.site_gen.build import SiteConfig, build_site

    config = SiteConfig(out=Path(out), knowledge_dir=Path(knowledge_dir), cases_dir=Path(cases_dir),
                        search=not no_search, incremental=not full, base_url=base_url, report_url=report_url)
    engine = open_database(existing_catalogue(db))
    with progress_bar(f"build {out}") as progress:
        report = build_site(engine, config, progress=progress)
    for warning in report.warnings:
        click.echo(f"  warning: {warning}", err=True)
    click.echo(report.summary())


@cli.command()
@click.option("--out", type=click.Path(file_okay=False), default="_site", show_default=True,
              help="The built site to serve.")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="Port on 127.0.0.1 (0 picks a free one).")
def serve(out, port) -> None:
    """Preview the built site on http://127.0.0.1:PORT/ (search needs it served, not opened as files).

    Example: jax-errors serve --out _site --port 8000
    """
    from jax_errors.site_gen.serve import make_server

    server = make_server(out, port)
    click.echo(f"serving {out} at http://127.0.0.1:{server.server_port}/ (Ctrl-C stops)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


@cli.group()
def triggers() -> None:
    """Triggers mined from JAX's tests: which test makes which raise site raise.

    Example: jax-errors triggers stats
    """


def tests_repo_option(fn):
    return click.option("--repo", type=click.Path(file_okay=False), envvar="JAX_ERRORS_JAX_REPO", required=True,
                        help="A JAX git repository (bare or not); read without a checkout.")(fn)


@triggers.command("mine")
@tests_repo_option
@click.option("--rev", default="HEAD", show_default=True, help="Commit or tag of the tests.")
@jobs_option
@db_option
def triggers_mine(repo, rev, jobs, db) -> None:
    """Mine every assertRaises* and pytest.raises of tests/ at --rev, and link their patterns to raise sites.

    The commit's raise sites are crawled first when the database lacks them. Mining a commit again
    replaces its asserts (and the triggers confirmed for them).

    Example: jax-errors triggers mine --repo ../jax --rev jax-v0.12.1
    """
    from jax_errors.crawler.mine_tests import git_tests, mine_tests
    from jax_errors.crawler.repository import JaxRepository

    engine = open_database(db)
    with JaxRepository(repo) as repository, progress_bar(f"mine {rev}") as progress:
        report = mine_tests(engine, git_tests(repository, rev), package=lambda: repository.snapshot(rev),
                            jobs=jobs, progress=progress)
    click.echo(report.summary())
    for failure in report.parse_failures:
        click.echo(f"  does not parse: {failure}", err=True)


@triggers.command("confirm")
@click.option("--rev", help="Commit or release tag of the tests [default: the installed jax's tag, else the "
                            "newest release tag the clone holds].")
@tests_repo_option
@jobs_option
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), envvar="JAX_ERRORS_TRIGGERS_FILE_TIMEOUT",
              help="Seconds one test file may run before it is killed [default: 900].")
@click.option("--files", "files_glob", metavar="GLOB", help="Only test files whose path matches (tests/lax*_test.py).")
@db_option
def triggers_confirm(rev, repo, jobs, timeout, files_glob, db) -> None:
    """Run the mined asserting tests of --rev on the jax they belong to and record the raise sites they catch.

    The installed jax's tag runs on the installed jax; another release tag runs in that release's own
    environment (made once with venv and pip, like `reproduce --jax`). Each test file runs in its own
    pytest process (8 CPU devices, traceback filtering off), only its asserting tests selected.

    Example: jax-errors triggers confirm --repo ../jax --rev jax-v0.12.1 --jobs 2
    """
    from jax_errors.crawler.repository import JaxRepository
    from jax_errors.reproduce.confirm import choose_tests, confirm_git
    from jax_errors.reproduce.environments import ensure_environment, ensure_test_tools

    kwargs = dict(jobs=jobs, files=files_glob)
    if timeout:
        kwargs["timeout"] = timeout
    engine = open_database(db)
    with JaxRepository(repo) as repository:
        choice = choose_tests(repository, rev)  # before the progress bar shows
    if choice.notice:
        click.echo(choice.notice, err=True)
    if choice.environment_version:
        click.echo(f"the environment of jax {choice.environment_version}: made once, then reused", err=True)
        kwargs["environment"] = ensure_test_tools(ensure_environment(choice.environment_version))
    with JaxRepository(repo) as repository, progress_bar(f"confirm {choice.rev}") as progress:
        report = confirm_git(engine, repository, choice.rev, progress=progress, **kwargs)
    click.echo(report.summary())


@triggers.command("probe")
@click.option("--function", "only", multiple=True, metavar="NAME",
              help="Probe only this function (a dotted name or a glob, jax.lax.*; repeatable) [default: every "
                   "public function].")
@jobs_option
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), envvar="JAX_ERRORS_PROBE_FUNCTION_TIMEOUT",
              help="Seconds the calls of one function may run before its worker is killed [default: 300].")
@click.option("--jax", "version", metavar="VERSION",
              help="Probe this jax release in its own environment (made once, like reproduce --jax) "
                   "[default: the installed jax].")
@db_option
def triggers_probe(only, jobs, timeout, version, db) -> None:
    """Call every public jax function with generated arguments and keep, per error, the shortest call raising it.

    A call counts for an error when its innermost traceback frame is that error's raise statement,
    its class is the site's and its message fits the template. Cards show it as a snippet that runs
    as shown.

    Example: jax-errors triggers probe --jobs 2
    """
    from jax_errors.reproduce.environments import ensure_environment
    from jax_errors.reproduce.probe import probe_jax

    kwargs = {"timeout": timeout} if timeout else {}
    if version:
        kwargs["environment"] = ensure_environment(version)
    engine = open_database(db)
    with progress_bar("probe") as progress:
        report = probe_jax(engine, only=only, jobs=jobs, progress=progress, **kwargs)
    click.echo(report.summary())
    for failure in report.failures:
        click.echo(f"  stopped: {failure}", err=True)


@triggers.command("stats")
@click.option("--commit", help="Only the tests of this commit (default: every commit mined).")
@click.option("--at", "at_label", metavar="SNAPSHOT",
              help="Count the verified errors of this snapshot (a tag, version or commit) [default: the newest].")
@db_option
def triggers_stats(commit, at_label, db) -> None:
    """Counts: asserts mined (by kind), linked statically, tests run, raise sites with a confirmed trigger.

    The last line counts the errors of one snapshot with a verified trigger: caught by a JAX test,
    there or at an earlier release under an earlier id of its lineage, or reproduced by a harness case.

    Example: jax-errors triggers stats --at jax-v0.12.1
    """
    from sqlalchemy.orm import Session

    from jax_errors.db.evidence import verified_errors
    from jax_errors.db.history import ordered_snapshots
    from jax_errors.db.queries import require_snapshot, trigger_stats

    with Session(open_database(existing_catalogue(db))) as session:
        row = trigger_stats(session, commit)
        snapshots = ordered_snapshots(session)
        snapshot = require_snapshot(session, at_label) if at_label else (snapshots[-1] if snapshots else None)
        verified = verified_errors(session, snapshot) if snapshot else None
    kinds = ", ".join(f"{n} {kind}" for kind, n in row.by_kind.items()) or "none"
    runs = ", ".join(f"{n} {status}" for status, n in sorted(row.runs_by_status.items())) or "none"
    caught = ", ".join(f"{n} {status}" for status, n in sorted(row.by_status.items())) or "nothing"
    click.echo(f"asserts mined        {row.asserts} ({kinds})")
    click.echo(f"linked statically    {row.linked} of {row.with_pattern} with a pattern")
    click.echo(f"test files run       {row.files_run} ({runs})")
    click.echo(f"tests run            {row.tests_run}")
    click.echo(f"exceptions caught    {row.caught} ({caught})")
    click.echo(f"asserts confirmed    {row.asserts_confirmed} ({row.confirmed_with_link} among their static "
               f"links, {row.confirmed_top_link} as the best one)")
    click.echo(f"sites confirmed      {row.sites_confirmed}")
    if verified:
        click.echo(f"verified             {verified.summary()}")


def main() -> None:
    cli()
