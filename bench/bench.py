"""Benchmarks of jax-errors, each a ratio against a baseline measured in the same run.

    .venv/bin/python bench/bench.py [--repo PATH] [--tag jax-v0.10.2] [--only crawl,releases,history,pypi_releases,...,explain]

Needs a JAX clone for the crawl benchmarks (default $JAX_ERRORS_JAX_CLONE or the fetched mirror);
the others use the installed jax. Prints one line per measurement and writes bench/results/last.json.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from pathlib import Path

from jax_errors.crawler.crawl import crawl_snapshot
from jax_errors.crawler.repository import JaxRepository
from jax_errors.db.engine import open_database
from jax_errors.exceptions import WorkerError

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_CLONE = os.environ.get("JAX_ERRORS_JAX_CLONE", "/work/.mirror/jax-ml+jax/repo")
BENCHMARKS: dict[str, Callable[[argparse.Namespace, dict], None]] = {}


def benchmark(fn):
    BENCHMARKS[fn.__name__] = fn
    return fn


def timed(fn, *args, **kwargs):
    started = time.perf_counter()
    result = fn(*args, **kwargs)
    return time.perf_counter() - started, result


def report(results: dict, name: str, **values) -> None:
    results[name] = values
    shown = ", ".join(f"{k}={v:.3f}" if isinstance(v, float) else f"{k}={v}" for k, v in values.items())
    print(f"{name}: {shown}", flush=True)


def fresh_db(tmp: Path, name: str):
    return open_database(tmp / f"{name}.db")


@benchmark
def crawl(args, results) -> None:
    """Full crawl of one tag vs `git grep -n "raise "` and vs a bare ast.parse of the same blobs."""
    with JaxRepository(args.repo) as repository, tempfile.TemporaryDirectory() as tmp:
        snapshot = repository.snapshot(args.tag)
        grep_s, _ = timed(subprocess.run, ["git", f"--git-dir={args.repo}", "grep", "-n", "raise ", args.tag,
                                           "--", "jax/"], capture_output=True, check=False)
        read_s, blobs = timed(lambda: [f.read() for f in snapshot.files])
        parse_s, _ = timed(lambda: [ast.parse(b) for b in blobs])
        crawl1_s, r1 = timed(crawl_snapshot, fresh_db(Path(tmp), "one"), snapshot, jobs=1)
        crawl2_s, _ = timed(crawl_snapshot, fresh_db(Path(tmp), "two"), snapshot, jobs=2)
        report(results, "crawl_one_tag", tag=args.tag, files=r1.files, sites=r1.sites,
               grep_s=grep_s, read_s=read_s, parse_s=parse_s, crawl_jobs1_s=crawl1_s, crawl_jobs2_s=crawl2_s,
               crawl_vs_grep=crawl2_s / grep_s, crawl_vs_read_and_parse=crawl2_s / (read_s + parse_s),
               complete_share=r1.complete_share)


@benchmark
def releases(args, results) -> None:
    """Crawl of every release tag: distinct blobs parsed vs files seen, time per tag."""
    with JaxRepository(args.repo) as repository, tempfile.TemporaryDirectory() as tmp:
        engine = fresh_db(Path(tmp), "releases")
        tags = repository.release_tags()
        files = parsed = 0
        started = time.perf_counter()
        for tag in tags:
            r = crawl_snapshot(engine, repository.snapshot(tag), jobs=2)
            files += r.files
            parsed += r.parsed
        seconds = time.perf_counter() - started
        db_mb = (Path(tmp) / "releases.db").stat().st_size / 2**20
        report(results, "crawl_all_releases", tags=len(tags), files_seen=files, blobs_parsed=parsed,
               parsed_vs_seen=parsed / files, seconds=seconds, seconds_per_tag=seconds / len(tags), db_mb=db_mb)


@benchmark
def history(args, results) -> None:
    """Every first-parent commit since --since (`crawl --history`) vs a crawl of the release tags since it alone.

    Time and database size of each; then one more commit on top of the full history (the history is
    crawled to HEAD~1 first), which a refresh pays.
    """
    from jax_errors.crawler.history import crawl_history
    from jax_errors.snapshots import version_key

    with JaxRepository(args.repo) as repository, tempfile.TemporaryDirectory() as tmp:
        since = version_key(args.since.removeprefix("jax-v"))
        tags = [t for t in repository.release_tags() if version_key(t.removeprefix("jax-v")) >= since]
        engine = fresh_db(Path(tmp), "tags")
        started = time.perf_counter()
        for tag in tags:
            crawl_snapshot(engine, repository.snapshot(tag), jobs=2)
        tags_s = time.perf_counter() - started
        tags_mb = (Path(tmp) / "tags.db").stat().st_size / 2**20
        engine = fresh_db(Path(tmp), "history")
        history_s, whole = timed(crawl_history, engine, repository, "HEAD~1", since=args.since, jobs=2)
        one_more_s, one_more = timed(crawl_history, engine, repository, "HEAD", jobs=2)
        history_mb = (Path(tmp) / "history.db").stat().st_size / 2**20
    report(results, "history_crawl", since=args.since, tags=len(tags), commits=whole.commits + one_more.commits,
           blobs_parsed=whole.parsed, events=whole.events + one_more.events, tags_s=tags_s, tags_db_mb=tags_mb,
           history_s=history_s + one_more_s, history_db_mb=history_mb, history_vs_tags_s=(history_s + one_more_s) / tags_s,
           history_vs_tags_db=history_mb / tags_mb, one_more_commit_s=one_more_s,
           one_more_vs_history=one_more_s / (history_s + one_more_s))


@benchmark
def pypi_releases(args, results) -> None:
    """Every release on the package index (0.0 on), read from its wheel (or source archive), vs the newest alone.

    Downloads go to the cache first (timed apart: the network is not the crawler); then both crawls
    read the cached files into fresh databases.
    """
    from jax_errors.crawler.releases import fetch_releases, list_releases, release_snapshot, select_releases

    chosen = select_releases(list_releases(), [], every=True)
    download_s, files = timed(fetch_releases, chosen)
    with tempfile.TemporaryDirectory() as tmp:
        newest_s, _ = timed(crawl_snapshot, fresh_db(Path(tmp), "newest"), release_snapshot(chosen[-1], files[-1]),
                            jobs=2)
        engine = fresh_db(Path(tmp), "all")
        seen = parsed = 0
        started = time.perf_counter()
        for release, file in zip(chosen, files):
            r = crawl_snapshot(engine, release_snapshot(release, file), jobs=2)
            seen += r.files
            parsed += r.parsed
        all_s = time.perf_counter() - started
    report(results, "crawl_pypi_releases", releases=len(chosen), oldest=chosen[0].version, newest=chosen[-1].version,
           files_seen=seen, blobs_parsed=parsed, download_s=download_s, all_s=all_s, newest_alone_s=newest_s,
           all_vs_newest_alone=all_s / newest_s)


@benchmark
def refresh(args, results) -> None:
    """Refresh of one commit (its parent crawled, reproduced and built first) vs a full crawl and build.

    The refresh crawls the commit, re-runs the cases whose raise site changed on its jax source
    (when it accepts the installed jaxlib) and rewrites the site's changed pages; Pagefind runs
    again only when what it indexes changed, over the shards whose pages changed. Each --refresh-rev
    is measured on its own, three times from the same parent: in a process of its own, as
    `jax-errors refresh` runs (the time inside it, not its start); the same with the search index in
    one shard (Pagefind reads every card again); and in this process, after the parent's crawl and build.
    """
    for rev in args.refresh_rev or DEFAULT_REFRESH_REVS:
        _refresh_one(args, results, rev)


# A commit that rewords one error and adds one (the search index changes), and one that moves raises
# only. Their cases run where the installed jaxlib accepts their jax source (0.10.2.dev: jaxlib 0.10).
DEFAULT_REFRESH_REVS = ("57ba662a85", "516c7b2903")

# The refresh in a process of its own: what `jax-errors refresh` does, timed inside.
_REFRESH_ALONE = """
import json, sys, time
from pathlib import Path
from jax_errors.crawler.refresh import refresh
from jax_errors.crawler.repository import JaxRepository
from jax_errors.db.engine import open_database
from jax_errors.reproduce.cases import load_cases
from jax_errors.site_gen import search_index
from jax_errors.site_gen.build import SiteConfig
db, repo, rev, out, root, answer, shards = sys.argv[1:]
search_index.SHARDS = int(shards)
site = SiteConfig(out=Path(out), knowledge_dir=Path(root) / "knowledge", cases_dir=Path(root) / "cases")
cases = load_cases(Path(root) / "cases")
with JaxRepository(repo) as repository:
    started = time.perf_counter()
    r = refresh(open_database(Path(db)), repository, rev, jobs=2, cases=cases, site=site)
    seconds = time.perf_counter() - started
Path(answer).write_text(json.dumps({"refresh_s": seconds, "crawl_s": sum(c.seconds for c in r.crawls),
                                    "history_s": r.history.seconds if r.history else 0.0,
                                    "site_s": r.site.seconds, "pages_rewritten": r.site.rewritten,
                                    "rendered": r.site.rendered}))
"""


def _refresh_one(args, results, rev: str) -> None:
    from jax_errors.crawler.refresh import refresh as refresh_catalogue
    from jax_errors.reproduce.case_runner import run_cases
    from jax_errors.reproduce.cases import load_cases
    from jax_errors.reproduce.source_tree import export_tree
    from jax_errors.site_gen import search_index
    from jax_errors.site_gen.build import SiteConfig, build_site

    with JaxRepository(args.repo) as repository, tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        engine = fresh_db(tmp, "refresh")
        commit = repository.commit(rev)
        parent = commit.parents[0].hexsha
        crawl_snapshot(engine, repository.snapshot(parent), jobs=2)
        cases = load_cases(ROOT / "cases")
        try:
            run_cases(engine, cases, jobs=2, tree=export_tree(repository, parent))
        except WorkerError as error:  # the parent may refuse the installed jaxlib too: measure without runs
            print(f"refresh: cases not run on the parent: {error}".splitlines()[0])
        site = SiteConfig(out=tmp / "site", knowledge_dir=ROOT / "knowledge", cases_dir=ROOT / "cases")
        build_s, _ = timed(build_site, engine, site)
        engine.dispose()
        alone = _refresh_alone(args, tmp, commit.hexsha, "site", search_index.SHARDS)
        # The baseline: the index in one shard, so Pagefind reads every card again when it runs.
        _built_in_one_shard(engine, replace(site, out=tmp / "one-shard-site"))
        one_shard = _refresh_alone(args, tmp, commit.hexsha, "one-shard-site", 1)
        refresh_s, r = timed(refresh_catalogue, engine, repository, commit.hexsha, jobs=2, cases=cases, site=site)
        full_s, _ = timed(crawl_snapshot, fresh_db(tmp, "full"), repository.snapshot(commit.hexsha), jobs=2)
        print(f"refresh: {r.summary()}")
        report(results, f"refresh_one_commit_{commit.hexsha[:10]}", commit=commit.hexsha[:10], parsed=r.parsed,
               crawl_s=alone["crawl_s"], cases_affected=len(r.affected),
               cases_rerun=len(r.reproduction.results) if r.reproduction else 0,
               pages_rewritten=alone["pages_rewritten"], cards_rendered=alone["rendered"], site_s=alone["site_s"],
               search_indexed_again=bool(r.site and r.site.searched), refresh_s=alone["refresh_s"],
               in_this_process_s=refresh_s, full_crawl_s=full_s, full_site_build_s=build_s,
               refresh_vs_full_crawl_and_build=alone["refresh_s"] / (full_s + build_s),
               one_shard_refresh_s=one_shard["refresh_s"], vs_one_shard=alone["refresh_s"] / one_shard["refresh_s"])


@benchmark
def refresh_on_history(args, results) -> None:
    """The refresh of one commit with the site, on top of the full history since --since, vs the same refresh
    of a catalogue holding the commit's parent alone (the `refresh` benchmark's), in the same run; each
    REFRESH_REPEATS times, from fresh copies.

    The history is crawled to the parent first (minutes), then the parent's snapshot and the site. A
    catalogue with a history keeps its line in the database, and every build reads it for the cards'
    commit-by-commit history: this is what a maintainer refreshing each new commit pays.
    """
    from jax_errors.crawler.history import crawl_history
    from jax_errors.site_gen import search_index
    from jax_errors.site_gen.build import SiteConfig, build_site

    rev = (args.refresh_rev or DEFAULT_REFRESH_REVS)[0]
    with JaxRepository(args.repo) as repository, tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        commit = repository.commit(rev)
        parent = commit.parents[0].hexsha
        measured = {}
        for name, with_history in (("without", False), ("history", True)):
            engine = fresh_db(tmp, f"refresh-{name}")
            history_s = 0.0
            if with_history:
                history_s, line = timed(crawl_history, engine, repository, parent, since=args.since, jobs=2)
                print(f"refresh_on_history: {line.summary()}")
            crawl_snapshot(engine, repository.snapshot(parent), jobs=2)
            shutil.rmtree(tmp / "site", ignore_errors=True)
            build_site(engine, SiteConfig(out=tmp / "site", knowledge_dir=ROOT / "knowledge", cases_dir=ROOT / "cases"))
            engine.dispose()
            # Each refresh from fresh copies: the median is reported, and all of them.
            runs = sorted((_refresh_alone(args, tmp, commit.hexsha, "site", search_index.SHARDS, work=f"{name}-{n}",
                                          db=f"refresh-{name}") for n in range(REFRESH_REPEATS)),
                          key=lambda run: run["refresh_s"])
            measured[name] = {**runs[len(runs) // 2], "history_crawl_s": history_s,
                              "all_refresh_s": [round(run["refresh_s"], 3) for run in runs]}
        # Then the commits after it, refreshed one at a time in this process, folding the commit snapshots
        # nothing cites (`--fold-commit-snapshots`), and keeping every one: the last refresh of each.
        line = [sha for sha, _ in repository.first_parent_line("HEAD", after=parent)][:1 + STEADY_REFRESHES]
        steady = {fold: _refreshed_one_by_one(tmp, repository, line, fold=fold) for fold in (True, False)}
    on, off = measured["history"], measured["without"]
    (folded_s, folded_kept), (kept_s, kept_kept) = steady[True], steady[False]
    report(results, f"refresh_on_history_{commit.hexsha[:10]}", since=args.since, history_crawl_s=on["history_crawl_s"],
           refresh_s=on["refresh_s"], slowest_refresh_s=on["all_refresh_s"][-1], all_refresh_s=on["all_refresh_s"],
           crawl_s=on["crawl_s"], history_s=on["history_s"], site_s=on["site_s"],
           pages_rewritten=on["pages_rewritten"], without_history_refresh_s=off["refresh_s"],
           without_history_all_refresh_s=off["all_refresh_s"],
           vs_without_history=on["refresh_s"] / off["refresh_s"], refreshes_one_by_one=len(line),
           last_folding_s=folded_s, snapshots_folding=folded_kept, last_keeping_every_s=kept_s,
           snapshots_keeping_every=kept_kept, folding_vs_keeping=folded_s / kept_s)


STEADY_REFRESHES = 11  # commits refreshed one at a time after the first
REFRESH_REPEATS = 3  # refreshes of the one commit, each from fresh copies


def _refreshed_one_by_one(tmp: Path, repository, line: list[str], *, fold: bool) -> tuple[float, int]:
    """Refresh a copy of the history catalogue and its site to each of `line` in turn (cases not run): the time
    of the last refresh, and the snapshots then kept."""
    from sqlalchemy import func, select
    from sqlalchemy.orm import Session

    from jax_errors.crawler.refresh import refresh as refresh_catalogue
    from jax_errors.db.models import Snapshot
    from jax_errors.site_gen.build import SiteConfig

    work = tmp / f"one-by-one-{'folding' if fold else 'keeping'}"
    work.mkdir()
    shutil.copyfile(tmp / "refresh-history.db", work / "catalogue.db")
    shutil.copytree(tmp / "site", work / "site")
    engine = open_database(work / "catalogue.db")
    site = SiteConfig(out=work / "site", knowledge_dir=ROOT / "knowledge", cases_dir=ROOT / "cases")
    for sha in line:
        seconds, _ = timed(refresh_catalogue, engine, repository, sha, jobs=2, site=site, fold=fold)
    with Session(engine) as session:
        snapshots = session.scalar(select(func.count()).select_from(Snapshot))
    engine.dispose()
    return seconds, snapshots


def _built_in_one_shard(engine, config):
    """The site `config` names, built with its search index in one shard: the baseline of the shards."""
    from jax_errors.site_gen import search_index
    from jax_errors.site_gen.build import build_site

    shards, search_index.SHARDS = search_index.SHARDS, 1
    try:
        return build_site(engine, config)
    finally:
        search_index.SHARDS = shards


def _refresh_alone(args, tmp: Path, rev: str, site: str, shards: int, work: str = "", db: str = "refresh") -> dict:
    """The refresh to `rev` from a copy of the parent's database and `site` (its search index in `shards`
    shards), in a process of its own."""
    work = tmp / f"alone-{site}{'-' if work else ''}{work}"
    work.mkdir()
    shutil.copyfile(tmp / f"{db}.db", work / "catalogue.db")
    shutil.copytree(tmp / site, work / "site")
    os.sync()  # the copies written out first: their write-back would otherwise run during the refresh
    subprocess.run([sys.executable, "-c", _REFRESH_ALONE, str(work / "catalogue.db"), str(args.repo), rev,
                    str(work / "site"), str(ROOT), str(work / "answer.json"), str(shards)], check=True)
    return json.loads((work / "answer.json").read_text())


@benchmark
def reproduce(args, results) -> None:
    """Reproduction throughput: a pool of long-lived workers vs a fresh process per case."""
    from jax_errors.reproduce.cases import load_cases
    from jax_errors.reproduce.pool import Worker, WorkerPool, run_on

    cases = load_cases(ROOT / "cases")[: args.cases]
    pool_s, _ = timed(lambda: list(WorkerPool(jobs=2, timeout=120).run(cases)))

    def one_process_per_case():
        for case in cases:
            worker = Worker()
            try:
                run_on(worker, case, 120)
            finally:
                worker.close()

    fresh_s, _ = timed(one_process_per_case)
    report(results, "reproduce", cases=len(cases), pool_jobs2_s=pool_s, process_per_case_s=fresh_s,
           cases_per_s_pool=len(cases) / pool_s, cases_per_s_fresh=len(cases) / fresh_s,
           speedup=fresh_s / pool_s)


@benchmark
def site(args, results) -> None:
    """Site build time per card: full, again over itself (nothing changed), and after one curated edit.

    Baseline: writing the same files with no rendering (a copy of the built site).
    """
    import shutil

    from jax_errors.crawler.installed import installed_snapshot
    from jax_errors.site_gen.build import SiteConfig, build_site

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        engine = fresh_db(tmp, "site")
        crawl_snapshot(engine, installed_snapshot(), jobs=2)
        knowledge = tmp / "knowledge"
        shutil.copytree(ROOT / "knowledge", knowledge)
        config = SiteConfig(out=tmp / "site", knowledge_dir=knowledge, cases_dir=ROOT / "cases", search=False)
        full_s, full = timed(build_site, engine, config)
        again_s, again = timed(build_site, engine, config)
        edited = sorted(knowledge.glob("*.md"))[0]
        edited.write_text(edited.read_text(encoding="utf-8") + "\nOne more sentence.\n", encoding="utf-8")
        edit_s, edit = timed(build_site, engine, config)
        copy_s, _ = timed(shutil.copytree, tmp / "site", tmp / "copy")
        search_s, _ = timed(build_site, engine, SiteConfig(out=tmp / "search", knowledge_dir=knowledge,
                                                          cases_dir=ROOT / "cases"))
    report(results, "site_build", cards=full.cards, files=full.rewritten, full_s=full_s,
           per_card_ms=full_s / full.cards * 1000, unchanged_rebuild_s=again_s, unchanged_rewritten=again.rewritten,
           one_edit_s=edit_s, one_edit_rendered=edit.rendered, one_edit_rewritten=edit.rewritten,
           copy_files_s=copy_s, full_vs_copy=full_s / copy_s, unchanged_vs_full=again_s / full_s,
           with_search_s=search_s)


@benchmark
def lookup(args, results) -> None:
    """Lookup of the evaluation set's 181 real messages: in process, and through the CLI with its stored index.

    Over the installed jax's catalogue, or with --lookup-db over a catalogue of every release
    (`jax-errors crawl --pypi-all`). Baselines in the same run: every template's regex tried on
    every message, as lookup did before its anchor-word index, and a bare `python -c pass`.
    """
    from sqlalchemy.orm import Session

    from jax_errors.crawler.installed import installed_snapshot
    from jax_errors.lookup.build import index_from_session
    from jax_errors.lookup.index import Query

    data = json.loads((ROOT / "tests" / "data" / "issue_messages.json").read_text())
    queries = [Query(d["message"], d["exception"].rpartition(".")[2]) for d in data]
    with tempfile.TemporaryDirectory() as tmp:
        if args.lookup_db:
            db = Path(tmp) / "releases.db"
            shutil.copyfile(args.lookup_db, db)
        else:
            db = Path(tmp) / "lookup.db"
            crawl_snapshot(fresh_db(Path(tmp), "lookup"), installed_snapshot(), jobs=2)
        engine = fresh_db(Path(tmp), db.stem)
        with Session(engine) as session:
            build_s, index = timed(index_from_session, session)
        snapshots = len({e.snapshot for e in index.entries})
        rounds = 3
        index.lookup(queries[0])  # compile what the first query needs, as a warm index would have
        query_s, _ = timed(lambda: [index.lookup(q) for _ in range(rounds) for q in queries])
        brute_s, _ = timed(lambda: [[e.regex.fullmatch(q.message) for e in index.entries
                                     if e.literal_length and e.anchor_words <= frozenset(q.message.split())]
                                    for q in queries])
        cli = [str(ROOT / ".venv" / "bin" / "jax-errors"), "lookup", "--db", str(db), queries[0].message]
        cold_s, _ = timed(lambda: subprocess.run(cli, check=True, capture_output=True))
        warm = [timed(lambda: subprocess.run(cli, check=True, capture_output=True))[0] for _ in range(5)]
        python = [timed(lambda: subprocess.run([sys.executable, "-c", "pass"], check=True))[0] for _ in range(5)]
    per_query = query_s / (rounds * len(queries))
    report(results, "lookup", entries=len(index.entries), snapshots_newest=snapshots, index_build_s=build_s,
           per_query_ms=per_query * 1000, every_regex_ms=brute_s / len(queries) * 1000,
           vs_every_regex=per_query / (brute_s / len(queries)), cli_first_s=cold_s, cli_s=statistics.median(warm),
           bare_python_s=statistics.median(python), cli_vs_bare_python=statistics.median(warm) / statistics.median(python))


@benchmark
def search_page(args, results) -> None:
    """The site's search page on a deep link (`search.html?q=...`): when its first lookup result shows,
    and its first full-text result.

    Each load is a fresh Chromium context (nothing cached), the site served over local HTTP. Over
    the installed jax's catalogue, or with --lookup-db over every release's. Baselines in the same
    run: downloading and parsing `api/lookup.json` alone, also in a fresh context; and the
    full-text result of the same site with its search index in one shard (nothing merged).
    """
    import threading
    import urllib.parse

    from playwright.sync_api import sync_playwright

    from jax_errors.crawler.installed import installed_snapshot
    from jax_errors.site_gen.build import SiteConfig, build_site
    from jax_errors.site_gen.serve import make_server

    message = "ValueError: all_gather_reduced only accepts inputs that are varying. Got f32[1]"
    first_result = """() => new Promise(resolve => {
      const list = document.getElementById('lookup-results');
      const done = () => resolve(performance.now());
      if (list.children.length) return done();
      new MutationObserver((_, seen) => { if (list.children.length) { seen.disconnect(); done(); } })
        .observe(list, {childList: true});
    })"""
    bare = """async () => {
      const started = performance.now();
      await (await fetch('api/lookup.json', {cache: 'no-store'})).json();
      return performance.now() - started;
    }"""
    full_text = """async () => {
      await new Promise(resolve => {
        const shown = () => document.querySelector('.pagefind-ui__result-link');
        if (shown()) return resolve();
        new MutationObserver((_, seen) => { if (shown()) { seen.disconnect(); resolve(); } })
          .observe(document.body, {childList: true, subtree: true});
      });
      return performance.now();
    }"""
    with tempfile.TemporaryDirectory() as tmp:
        if args.lookup_db:
            engine = open_database(shutil.copyfile(args.lookup_db, Path(tmp) / "releases.db"))
        else:
            engine = fresh_db(Path(tmp), "search")
            crawl_snapshot(engine, installed_snapshot(), jobs=2)
        config = SiteConfig(out=Path(tmp) / "site", knowledge_dir=ROOT / "knowledge", cases_dir=ROOT / "cases")
        built = build_site(engine, config)
        one_shard = _built_in_one_shard(engine, replace(config, out=Path(tmp) / "one-shard-site"))
        size = (built.out / "api" / "lookup.json").stat().st_size
        servers = [make_server(site.out, 0) for site in (built, one_shard)]
        for server in servers:
            threading.Thread(target=server.serve_forever, daemon=True).start()
        url, one_shard_url = (f"http://127.0.0.1:{server.server_port}/" for server in servers)
        deep_link = f"search.html?q={urllib.parse.quote(message)}"

        def first_result_s(page) -> float:
            page.goto(url + deep_link, wait_until="commit")
            return page.evaluate(first_result) / 1000

        def lookup_json_s(page) -> float:
            page.goto(url + "index.html")
            return page.evaluate(bare) / 1000

        def full_text_s(page, site_url: str) -> float:
            page.goto(site_url + deep_link, wait_until="commit")
            return page.evaluate(full_text) / 1000

        measures = {"shown": first_result_s, "alone": lookup_json_s,
                    "full_text": partial(full_text_s, site_url=url),
                    "one_shard_full_text": partial(full_text_s, site_url=one_shard_url)}
        times: dict[str, list[float]] = {name: [] for name in measures}
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=os.environ.get("JAX_ERRORS_CHROMIUM", "/usr/bin/chromium"),
                    args=["--headless", "--no-sandbox", "--disable-gpu"])
                for _ in range(10):
                    for name, measure in measures.items():
                        context = browser.new_context()  # nothing cached
                        times[name].append(measure(context.new_page()))
                        context.close()
                browser.close()
        finally:
            for server in servers:
                server.shutdown()
                server.server_close()
    shown, alone = times["shown"], times["alone"]
    report(results, "search_page", cards=built.cards, lookup_json_mb=size / 1e6,
           first_result_median_s=statistics.median(shown), first_result_max_s=max(shown),
           lookup_json_alone_median_s=statistics.median(alone),
           first_result_vs_lookup_json_alone=statistics.median(shown) / statistics.median(alone),
           full_text_first_result_median_s=statistics.median(times["full_text"]),
           full_text_first_result_max_s=max(times["full_text"]),
           one_shard_full_text_median_s=statistics.median(times["one_shard_full_text"]),
           full_text_vs_one_shard=statistics.median(times["full_text"]) / statistics.median(times["one_shard_full_text"]))


@benchmark
def adversarial(args, results) -> None:
    """The slowest lookup of messages crafted from every template's own words (`lookup.adversarial`).

    Baseline in the same run: the median lookup of the evaluation set's 181 real messages.
    """
    from sqlalchemy.orm import Session

    from jax_errors.crawler.installed import installed_snapshot
    from jax_errors.lookup.adversarial import adversarial_messages
    from jax_errors.lookup.build import index_from_session
    from jax_errors.lookup.index import Query

    data = json.loads((ROOT / "tests" / "data" / "issue_messages.json").read_text())
    with tempfile.TemporaryDirectory() as tmp:
        crawl_snapshot(fresh_db(Path(tmp), "adversarial"), installed_snapshot(), jobs=2)
        with Session(fresh_db(Path(tmp), "adversarial")) as session:
            index = index_from_session(session)
    for entry in index.entries:
        entry.regex  # compiled before timing, as a warm index has them
    real = sorted(timed(index.lookup, Query(d["message"], d["exception"].rpartition(".")[2]))[0] for d in data)
    worst = (0.0, "", 0)
    crafted = 0
    for entry in index.entries:
        for message in adversarial_messages(entry.template):
            seconds, _ = timed(index.lookup, message)
            crafted += 1
            worst = max(worst, (seconds, entry.error_id, len(message)))
    median = statistics.median(real)
    report(results, "adversarial", templates=len(index.entries), crafted=crafted, worst_ms=worst[0] * 1000,
           worst_error=worst[1], worst_chars=worst[2], real_median_ms=median * 1000, worst_vs_real=worst[0] / median)


EXPLAIN_PROBE = """
import json, sys, time
started = time.perf_counter()
import jax_errors
from jax_errors.explainer import hook  # what install() imports: the rest is loaded at the first exception
imported = time.perf_counter() - started
NOTE = "For simplicity, JAX has removed its internal frames from the traceback of the following exception."


def jax_error(name, message):
    error = type(name, (Exception,), {})(message)
    error.add_note(NOTE)
    return error


first_message, messages = json.loads(sys.argv[1])
errors = [jax_error(name, message) for name, message in messages]
first = jax_error(*first_message)
started = time.perf_counter()
shown = hook.card_for_traceback(first)
first_s = time.perf_counter() - started
later = []
for error in errors:
    started = time.perf_counter()
    hook.card_for_traceback(error)
    later.append(time.perf_counter() - started)
from jax_errors.explainer import api

[source] = api._sources.values()
lookup_s = []
for query in [api.exception_query(error) for error in errors]:
    started = time.perf_counter()
    source.index.lookup(query, limit=1)
    lookup_s.append(time.perf_counter() - started)
print(json.dumps({"import_s": imported, "first_s": first_s, "shown": shown.error_id if shown else None,
                  "later_s": later, "lookup_s": lookup_s}))
"""


@benchmark
def explain(args, results) -> None:
    """The card at a process's first JAX exception, and at the next ones, from the database and from an index file.

    Each run is a fresh process that calls what the excepthook calls (`hook.card_for_traceback`):
    first on the seed error, loading the index (the database's stored index; the index file's copy
    in the cache folder; or, once per file and machine, the file itself), then on the 181
    evaluation messages. Baselines in the same run: `import jax` in a fresh process, which a user
    of the hook pays anyway, and lookup alone (`LookupIndex.lookup`) on the same messages.
    """
    from jax_errors.crawler.installed import installed_snapshot
    from jax_errors.explainer.record import explain_record
    from jax_errors.lookup.browser import catalogue_index
    from jax_errors.lookup.stored import stored_index
    from jax_errors.reproduce.cases import load_cases
    from jax_errors.site_gen.catalogue import load_catalogue
    from jax_errors.site_gen.knowledge import load_knowledge
    from jax_errors.site_gen.records import dumps

    data = json.loads((ROOT / "tests" / "data" / "issue_messages.json").read_text())
    messages = [[d["exception"].rpartition(".")[2], d["message"]] for d in data]
    seed = ["ValueError", "all_gather_reduced only accepts inputs that are varying. Got f32[4]"]
    runs = 3
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        db = tmp / "explain.db"
        if args.lookup_db:
            shutil.copyfile(args.lookup_db, db)
        else:
            crawl_snapshot(fresh_db(tmp, "explain"), installed_snapshot(), jobs=2)
        engine = open_database(db)
        catalogue = load_catalogue(engine, knowledge=load_knowledge(ROOT / "knowledge"),
                                   cases=load_cases(ROOT / "cases"))
        index_file = tmp / "explain.json"
        index_file.write_text(dumps(explain_record(catalogue, catalogue_index(catalogue), base_url=None), compact=True))
        stored_index(str(db))
        size_mb = index_file.stat().st_size / 2**20

        def probe(env: dict) -> dict:
            out = subprocess.run([sys.executable, "-c", EXPLAIN_PROBE, json.dumps([seed, messages])], cwd=ROOT,
                                 env={**os.environ, "JAX_ERRORS_CONFIG": str(tmp / "none.toml"), **env},
                                 capture_output=True, text=True, check=True).stdout
            return json.loads(out)

        measured = {
            "db": [probe({"JAX_ERRORS_DB": str(db), "JAX_ERRORS_CACHE": str(tmp / "cache")}) for _ in range(runs)],
            "index_first_ever": [probe({"JAX_ERRORS_EXPLAIN_INDEX": str(index_file),
                                        "JAX_ERRORS_CACHE": str(tmp / f"cold{i}")}) for i in range(runs)],
            "index": [probe({"JAX_ERRORS_EXPLAIN_INDEX": str(index_file), "JAX_ERRORS_CACHE": str(tmp / "cold0")})
                      for _ in range(runs)],
        }
        import_jax = [timed(subprocess.run, [sys.executable, "-c", "import jax"], check=True)[0] for _ in range(runs)]
    jax_s = statistics.median(import_jax)
    values: dict = {"entries": len(catalogue.cards), "index_file_mb": size_mb, "import_jax_s": jax_s}
    for name, probes in measured.items():
        assert all(p["shown"] == "252d5ba9437acc7a" for p in probes), probes
        later = sorted(s for p in probes for s in p["later_s"])
        alone = sorted(s for p in probes for s in p["lookup_s"])
        first = statistics.median(p["first_s"] for p in probes)
        values.update({
            f"{name}_import_jax_errors_ms": statistics.median(p["import_s"] for p in probes) * 1000,
            f"{name}_first_s": first, f"{name}_first_vs_import_jax": first / jax_s,
            f"{name}_later_median_ms": statistics.median(later) * 1000,
            f"{name}_later_p95_ms": later[int(0.95 * (len(later) - 1))] * 1000,
            f"{name}_later_max_ms": later[-1] * 1000,
            f"{name}_lookup_alone_median_ms": statistics.median(alone) * 1000,
            f"{name}_lookup_alone_max_ms": alone[-1] * 1000,
            f"{name}_later_vs_lookup_alone": statistics.median(later) / statistics.median(alone),
        })
    report(results, "explain", **values)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", default=DEFAULT_CLONE)
    parser.add_argument("--tag", default="jax-v0.10.2")
    parser.add_argument("--refresh-rev", action="append",
                        help=f"a commit the refresh benchmark refreshes to (repeatable; default {', '.join(DEFAULT_REFRESH_REVS)})")
    parser.add_argument("--since", default="jax-v0.4.1", help="where the history benchmark's crawl begins")
    parser.add_argument("--cases", type=int, default=16, help="how many cases the reproduce benchmark runs")
    parser.add_argument("--lookup-db", help="a catalogue of every release (crawl --pypi-all) for the lookup benchmark")
    parser.add_argument("--only", default=",".join(BENCHMARKS), help="comma-separated: " + ",".join(BENCHMARKS))
    args = parser.parse_args()
    wanted = [n for n in args.only.split(",") if n]
    needs_clone = {"crawl", "releases", "refresh", "history", "refresh_on_history"}
    results: dict = {"python": sys.version.split()[0], "cpus": os.cpu_count()}
    for name in wanted:
        if name in needs_clone and not (Path(args.repo) / "HEAD").exists() and not (Path(args.repo) / ".git").exists():
            print(f"{name}: skipped, no JAX clone at {args.repo} (--repo or JAX_ERRORS_JAX_CLONE)")
            continue
        BENCHMARKS[name](args, results)
    results["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak_rss_mb: {results['peak_rss_mb']:.0f}")
    out = ROOT / "bench" / "results"
    out.mkdir(exist_ok=True)
    (out / "last.json").write_text(json.dumps(results, indent=2, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
