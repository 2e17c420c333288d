"""`crawl --history`: every first-parent commit of a synthetic repo of a few hundred commits, as spans and events.

The truth each check compares with is made per commit, the way a snapshot crawl makes it
(`raise_sites_of`, `base_ids`, `error_ids` over every file), never by the history's own code.
"""

from __future__ import annotations

import random
import textwrap
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from commands import ok, one_line_error, run
from site_pages import site_files
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from jax_errors.crawler.crawl import crawl_snapshot
from jax_errors.crawler.history import crawl_history
from jax_errors.crawler.ids import base_ids, error_ids
from jax_errors.crawler.imports import module_imports
from jax_errors.crawler.raise_sites import raise_sites_of
from jax_errors.crawler.repository import JaxRepository
from jax_errors.crawler.statements import parse_source
from jax_errors.db.commit_history import LineHistory
from jax_errors.db.engine import open_database
from jax_errors.db.models import (
    BlobErrors,
    ErrorSpan,
    HistoryCommit,
    HistoryEvent,
    Occurrence,
    OccurrenceSpan,
    Snapshot,
)
from jax_errors.exceptions import SourceError

START = datetime(2025, 1, 1, 12, 0)
WORDS = ["axis", "shape", "dtype", "rank", "size", "tracer", "mesh", "device"]


def module(rng: random.Random, errors: list[tuple[str, str]]) -> str:
    """A jax module raising each (function, message) in `errors`, with some filler that raises nothing."""
    chunks = []
    for function, message in errors:
        chunks.append(textwrap.dedent(f'''
            def {function}(x):
                # {rng.randrange(1000)}
                if x < 0:
                    raise ValueError(f"{message}, got {{x}}")
                return x
        '''))
    return "\n".join(chunks) or "X = 1\n"


def evolve(rng: random.Random, files: dict[str, list[tuple[str, str]]]) -> tuple[dict, str]:
    """One commit's change: add, reword, remove or move an error, rename a file, or touch only a comment."""
    files = {path: list(errors) for path, errors in files.items()}
    path = rng.choice(sorted(files))
    kind = rng.choice(["add", "add", "reword", "remove", "comment", "comment", "rename", "move"])
    errors = files[path]
    if kind == "add" or not errors:
        kind = "add"
        errors.append((f"f{rng.randrange(10**6)}", " ".join(rng.sample(WORDS, 4))))
    elif kind == "reword":
        i = rng.randrange(len(errors))
        errors[i] = (errors[i][0], errors[i][1] + " " + rng.choice(WORDS))
    elif kind == "remove":
        errors.pop(rng.randrange(len(errors)))
    elif kind == "rename":
        files[f"jax/_src/m{rng.randrange(10**6)}.py"] = files.pop(path)
    elif kind == "move":
        other = rng.choice(sorted(files))
        files[other] = files[other] + [errors.pop(rng.randrange(len(errors)))]
    return files, kind


def write(git_repo, rng: random.Random, before: dict, after: dict, message: str, date: datetime) -> str:
    changed = {path: module(rng, errors) for path, errors in after.items() if before.get(path) != errors}
    if not changed and message == "comment":  # a comment-only change: the error ids stay
        path = rng.choice(sorted(after))
        changed = {path: module(rng, after[path])}
    changed.update({path: None for path in before if path not in after})
    return git_repo.commit(changed, message, date=date.isoformat())


@pytest.fixture
def history_repo(git_repo):
    """A repo of 240 first-parent commits (one a merge of a side branch) changing errors at random."""
    rng = random.Random(18)
    files = {f"jax/_src/m{i}.py": [(f"g{i}_{k}", " ".join(rng.sample(WORDS, 3))) for k in range(3)] for i in range(4)}
    date = START
    shas = [write(git_repo, rng, {}, files, "start", date)]
    kinds = ["start"]
    for n in range(1, 240):
        date += timedelta(hours=1)
        if n == 120:  # a merge: its first-parent diff is what the branch brought
            repo = git_repo.repo
            repo.git.checkout("-b", "side")
            new, _ = evolve(rng, files)
            write(git_repo, rng, files, new, "side", date)
            repo.git.checkout("main")
            repo.git.merge("--no-ff", "-m", "merge side", "side",
                           env={"GIT_AUTHOR_DATE": date.isoformat(), "GIT_COMMITTER_DATE": date.isoformat()})
            files = new
            shas.append(repo.head.commit.hexsha)
            kinds.append("merge")
            continue
        if n in (236, 237):  # an error removed, then put back as it was: it comes and goes twice
            new = {path: list(errors) for path, errors in files.items()}
            if n == 236:
                path = next(p for p in sorted(new) if new[p])
                kind, taken = "remove", (path, new[path].pop())
            else:
                kind = "add"
                new[taken[0]].append(taken[1])
        else:
            new, kind = evolve(rng, files)
        shas.append(write(git_repo, rng, files, new, kind, date))
        files = new
        kinds.append(kind)
    git_repo.repo.create_tag("jax-v0.0.5", ref=shas[100])
    git_repo.shas, git_repo.kinds = shas, kinds
    return git_repo


def truth_at(repository: JaxRepository, sha: str) -> set[tuple[str, str]]:
    """(error id, path) of every raise at one commit, as a snapshot crawl makes them."""
    placed = []
    for file in repository.files(sha):
        text, tree = parse_source(file.read(), file.path)
        sites = raise_sites_of(tree, path=file.path, lines=text.splitlines(), imports=module_imports(tree, file.path))
        placed += [(file.path, base) for base in base_ids(sites) if base is not None]
    return set(zip(error_ids(placed), (path for path, _ in placed)))


def spans_at(engine, position: int) -> set[tuple[str, str]]:
    with Session(engine) as session:
        return set(session.execute(select(ErrorSpan.error_id, ErrorSpan.path).where(
            ErrorSpan.first_position <= position,
            (ErrorSpan.last_position >= position) | ErrorSpan.last_position.is_(None))).all())


def stored(engine) -> dict[str, list[tuple]]:
    """Every row the history wrote, ids aside."""
    with Session(engine) as session:
        return {
            "commits": session.execute(select(HistoryCommit.position, HistoryCommit.commit, HistoryCommit.releases)
                                       .order_by(HistoryCommit.position)).all(),
            "spans": sorted(session.execute(select(ErrorSpan.error_id, ErrorSpan.path, ErrorSpan.first_position,
                                                   ErrorSpan.last_position)).all(), key=repr),
            "events": sorted(session.execute(select(HistoryEvent.position, HistoryEvent.kind, HistoryEvent.error_id,
                                                    HistoryEvent.previous_id, HistoryEvent.path)).all(), key=repr),
        }


def test_every_commit_reads_back_as_a_snapshot_crawl_would_see_it(history_repo, fresh_db):
    with JaxRepository(history_repo.path) as repository:
        report = crawl_history(fresh_db, repository, "main")
        assert report.commits == 240
        for position, sha in enumerate(history_repo.shas, 1):
            assert spans_at(fresh_db, position) == truth_at(repository, sha), (position, history_repo.kinds[position - 1])
        with Session(fresh_db) as session:
            spans = session.scalar(select(func.count()).select_from(ErrorSpan))
            blobs = session.scalar(select(func.count()).select_from(BlobErrors))
        # Storage grows with changes: 12 first errors, then at most one span per error a commit adds or moves.
        changes = sum(len(truth_at(repository, new) - truth_at(repository, old))
                      for old, new in zip(history_repo.shas, history_repo.shas[1:]))
        assert spans == 12 + changes < 240 * 12 / 4
        # Each distinct blob read once; a second run reads none and writes nothing.
        assert report.parsed == blobs and report.reused == 0
        before = stored(fresh_db)
        again = crawl_history(fresh_db, repository, "main")
        assert (again.commits, again.parsed) == (0, 0) and stored(fresh_db) == before


def test_a_comment_changes_nothing_and_each_change_is_one_event(history_repo, fresh_db):
    with JaxRepository(history_repo.path) as repository:
        crawl_history(fresh_db, repository, "main")
    with Session(fresh_db) as session:
        events = session.execute(select(HistoryEvent.position, HistoryEvent.kind, HistoryEvent.previous_id,
                                        HistoryEvent.error_id)).all()
    by_position: dict[int, list] = {}
    for position, kind, previous, error in events:
        by_position.setdefault(position, []).append((kind, previous, error))
    for position, kind in enumerate(history_repo.kinds, 1):
        found = sorted(k for k, _, _ in by_position.get(position, []))
        if kind == "comment":
            assert found == [], position
        elif kind == "reword":
            assert found == ["reworded"], position
        elif kind == "rename":  # each error of the file: the same id at another path
            assert found and set(found) == {"moved"}, position
            assert all(p == e for _, p, e in by_position[position])
        elif kind in ("add", "remove"):
            assert found == [{"add": "added", "remove": "removed"}[kind]], position


def test_a_card_shows_the_commits_that_made_its_error(history_repo, fresh_db):
    from jax_errors.site_gen.catalogue import load_catalogue
    from jax_errors.site_gen.records import card_record, validate

    with JaxRepository(history_repo.path) as repository:
        crawl_history(fresh_db, repository, "main", since=history_repo.shas[10])
        crawl_snapshot(fresh_db, repository.snapshot("main"))
    cards = load_catalogue(fresh_db).cards.values()
    assert cards and all(card.history.commits is not None for card in cards)
    for card in cards:
        validate(card_record(card), "error.schema.json")
    back = [card for card in cards if len(card.history.commits.presence) > 1]
    assert back, "the error removed at commit 237 and put back at 238"
    for card in back:
        events = card_record(card)["affected"][0]["ranges"][0]["events"]
        assert [list(e) for e in events] == [["introduced"], ["fixed"]] * (len(events) // 2) + [["introduced"]]
        assert {"fixed": history_repo.shas[236]} in events and {"introduced": history_repo.shas[237]} in events
    reworded = [card for card in cards if any(e.kind == "reworded" for e in card.history.commits.events)]
    assert len(reworded) >= 3
    for card in reworded:
        record = card_record(card)
        validate(record, "error.schema.json")
        commits = record["history"]["commits"]
        for event in commits["events"]:
            assert event["function"].startswith(("f", "g")) and event["previous_function"] in (None, event["function"])
            position = history_repo.shas.index(event["commit"])
            assert history_repo.kinds[position] == {"reworded": "reword", "added": "add", "moved": "move",
                                                    "removed": "remove"}.get(event["kind"]) or \
                (history_repo.kinds[position], event["kind"]) in {("rename", "moved"), ("merge", event["kind"])}
        assert commits["began"]["commit"] == history_repo.shas[10]
        first = commits["presence"][0]["from"]["commit"]
        ranges = record["affected"][0]["ranges"][0]["events"]
        assert ranges[0] == {"introduced": "0" if first == history_repo.shas[10] else first}
        assert commits["introduced"] == (None if first == history_repo.shas[10] else commits["presence"][0]["from"])
    # An error of the line that is gone: its OSV range is fixed by the commit that removed it.
    removed = session_removed(fresh_db)
    with Session(fresh_db) as session:
        gone = LineHistory.read(session).of(removed.error_id)
    assert gone.removed_at.position == removed.position
    assert gone.removed_at.commit == history_repo.shas[removed.position - 1]


def session_removed(engine) -> HistoryEvent:
    with Session(engine) as session:
        event = session.scalars(select(HistoryEvent).where(HistoryEvent.kind == "removed")
                                .order_by(HistoryEvent.position).limit(1)).one()
        session.expunge(event)
        return event


def test_the_line_ids_are_the_snapshot_crawl_ids(history_repo, fresh_db):
    with JaxRepository(history_repo.path) as repository:
        crawl_history(fresh_db, repository, "main")
        crawl_snapshot(fresh_db, repository.snapshot("main"))
    with Session(fresh_db) as session:
        crawled = set(session.execute(select(Occurrence.error_id, Occurrence.path)
                                      .where(Occurrence.error_id.is_not(None))).all())
    assert spans_at(fresh_db, 240) == crawled


def test_releases_count_where_their_commit_raises_it(history_repo, fresh_db):
    with JaxRepository(history_repo.path) as repository:
        crawl_history(fresh_db, repository, "main")
        with Session(fresh_db) as session:
            line = LineHistory.read(session)
        assert line.releases == {101: ["jax-v0.0.5"]}
        for error_id, _path in truth_at(repository, history_repo.shas[100]):
            assert "jax-v0.0.5" in line.of(error_id).releases
        for error_id, _path in truth_at(repository, history_repo.shas[-1]) - truth_at(repository, history_repo.shas[100]):
            history = line.of(error_id)
            assert ("jax-v0.0.5" in history.releases) == (history.presence[0].first.position <= 101)


@pytest.mark.parametrize("stage", ["history:blobs", "history:writing", "history:committed@2"])
def test_a_history_crawl_killed_midway_keeps_what_it_finished_and_goes_on(history_repo, tmp_path, stage):
    whole, cut = tmp_path / "whole.db", tmp_path / "cut.db"
    args = ["crawl", "--repo", str(history_repo.path), "--history", "--rev", "main"]
    ok(*args, "--db", str(whole), JAX_ERRORS_HISTORY_BATCH="50", JAX_ERRORS_HISTORY_BLOB_BATCH="40")


    done = run(*args, "--db", str(cut), JAX_ERRORS_FAULT=stage, JAX_ERRORS_HISTORY_BATCH="50",
               JAX_ERRORS_HISTORY_BLOB_BATCH="40")
    assert done.returncode == -9, done.stderr
    engine = open_database(cut)
    kept = {"history:blobs": 0, "history:writing": 0, "history:committed@2": 100}[stage]
    with Session(engine) as session:
        assert session.scalar(select(func.count()).select_from(HistoryCommit)) == kept
        if stage == "history:blobs":
            assert session.scalar(select(func.count()).select_from(BlobErrors)) == 40
    with JaxRepository(history_repo.path) as repository:
        for position in range(1, kept + 1, 7):
            assert spans_at(engine, position) == truth_at(repository, history_repo.shas[position - 1])
    out = ok(*args, "--db", str(cut), JAX_ERRORS_HISTORY_BATCH="50")
    assert f"after {kept} stored before" in out or not kept
    assert stored(open_database(cut)) == stored(open_database(whole))


def test_bad_input_is_one_line(history_repo, tmp_path):


    db = tmp_path / "h.db"
    history_repo.repo.git.checkout("--orphan", "elsewhere")
    elsewhere = history_repo.commit({"jax/other.py": "X = 1\n"}, "unrelated", date="2025-06-01T12:00:00")
    history_repo.repo.git.checkout("-f", "main")
    done = run("crawl", "--repo", str(history_repo.path), "--history", "--rev", "main", "--since", elsewhere,
               "--db", str(db))
    assert "is not on the first-parent history of main, nor made from a commit of it" in one_line_error(done)
    # A commit of a branch made from the line (as a release branch is) begins where it left the line.
    side = history_repo.repo.git.rev_parse("side")
    ok("crawl", "--repo", str(history_repo.path), "--history", "--rev", "main", "--since", side,
       "--db", str(tmp_path / "from-side.db"))
    with Session(open_database(tmp_path / "from-side.db")) as session:
        assert session.scalar(select(func.min(HistoryCommit.position))) == 120  # the commit before the merge
    done = run("crawl", "--repo", str(history_repo.path), "--history", "--since", "no-such-rev", "--db", str(db))
    assert "no-such-rev" in one_line_error(done)
    ok("crawl", "--repo", str(history_repo.path), "--history", "--rev", "main", "--db", str(db))
    done = run("crawl", "--repo", str(history_repo.path), "--history", "--rev", "side", "--db", str(db))
    assert "side is not on the stored first-parent history" in one_line_error(done)



def test_refresh_extends_the_history_with_the_commits_the_branch_gained(history_repo, fresh_db, tmp_path):
    from jax_errors.crawler.refresh import refresh

    with JaxRepository(history_repo.path) as repository:
        crawl_history(fresh_db, repository, history_repo.shas[200])
        crawl_snapshot(fresh_db, repository.snapshot(history_repo.shas[200]))
        report = refresh(fresh_db, repository, "main")
        assert report.history.commits == 39 and "history: 39 commits" in report.summary()
        assert spans_at(fresh_db, 240) == truth_at(repository, history_repo.shas[-1])
        assert spans_at(fresh_db, 201) == truth_at(repository, history_repo.shas[200])
        # The snapshot crawls stored what the line keeps of each blob they read: the history read only the
        # others, and what they stored is what the history's own reading stores.
        alone = open_database(tmp_path / "alone.db")
        crawl_history(alone, repository, history_repo.shas[200])
        needed = crawl_history(alone, repository, "main").parsed
        assert report.parsed > 0 and report.history.parsed == needed - report.parsed
        direct = open_database(tmp_path / "direct.db")
        crawl_history(direct, repository, "main")
    assert blob_errors(fresh_db) == blob_errors(direct)


def test_refresh_extends_the_line_while_the_newest_commit_is_crawled_from_that_crawls_scans(
        history_repo, fresh_db, monkeypatch, tmp_path):
    """The line is extended before the newest snapshot's transaction (while its call graph is made), and
    takes the blobs that crawl scanned from its scans; when that fails, the snapshot is not stored."""
    import jax_errors.crawler.refresh as refreshing

    calls = []

    def extending(engine, repository, rev, *, scanned=(), **options):
        with Session(engine) as session:
            stored = session.scalar(select(Snapshot.id).where(Snapshot.commit == history_repo.shas[-1]))
        calls.append((stored, sorted(scan.sha for scan in scanned)))
        return crawl_history(engine, repository, rev, scanned=scanned, **options)

    monkeypatch.setattr(refreshing, "crawl_history", extending)
    with JaxRepository(history_repo.path) as repository:
        crawl_history(fresh_db, repository, history_repo.shas[236])
        crawl_snapshot(fresh_db, repository.snapshot(history_repo.shas[236]))
        report = refreshing.refresh(fresh_db, repository, "main")
        newest = report.crawls[-1]
        assert [c.commit for c in report.crawls] == history_repo.shas[237:] and newest.parsed > 0
        [(stored, scanned)] = calls
        assert stored is None and len(scanned) == newest.parsed
        # None of them parsed again: the history parsed only what the two crawls before did not store for it.
        assert report.history.parsed == 0 and report.history.commits == 3
        assert spans_at(fresh_db, 240) == truth_at(repository, history_repo.shas[-1])

    def failing(*_args, **_options):
        raise SourceError("the line cannot be extended")

    failed = open_database(tmp_path / "failed.db")
    monkeypatch.setattr(refreshing, "crawl_history", failing)
    with JaxRepository(history_repo.path) as repository:
        crawl_history(failed, repository, history_repo.shas[236])
        crawl_snapshot(failed, repository.snapshot(history_repo.shas[236]))
        with pytest.raises(SourceError, match="cannot be extended"):
            refreshing.refresh(failed, repository, history_repo.shas[237])
    with Session(failed) as session:
        assert session.scalars(select(Snapshot.commit)).all() == [history_repo.shas[236]]


def test_a_refreshed_history_keeps_the_commit_snapshots_its_cards_cite(history_repo, fresh_db, tmp_path):
    from jax_errors.crawler.refresh import refresh
    from jax_errors.site_gen.build import SiteConfig, build_site
    from jax_errors.site_gen.catalogue import load_catalogue

    site = SiteConfig(out=tmp_path / "site", knowledge_dir=tmp_path / "none", cases_dir=tmp_path / "none",
                      search=False)
    refreshed, folded = [], []
    with JaxRepository(history_repo.path) as repository:
        crawl_history(fresh_db, repository, history_repo.shas[200])
        crawl_snapshot(fresh_db, repository.snapshot("jax-v0.0.5"))  # a release of the line: never folded
        crawl_snapshot(fresh_db, repository.snapshot(history_repo.shas[200]))
        build_site(fresh_db, site)
        cited = {card.id: card.location.snapshot.commit for card in load_catalogue(fresh_db).cards.values()
                 if not card.retired}
        for n in range(201, 240, 3):
            report = refresh(fresh_db, repository, history_repo.shas[n], site=site, fold=True)
            assert [c.commit for c in report.crawls] == [history_repo.shas[n]]  # the newest alone
            refreshed.append(history_repo.shas[n])
            folded += report.folded
            touched = set(repository.repo.git.diff("--name-only", refreshed[-2] if len(refreshed) > 1
                                                   else history_repo.shas[200], refreshed[-1]).split())
            cards = load_catalogue(fresh_db).cards.values()
            # A card whose file the commits left alone names the same commit for its place as before.
            assert all(cited[card.id] == card.location.snapshot.commit for card in cards
                       if not card.retired and card.id in cited and card.location.path not in touched)
            cited = {card.id: card.location.snapshot.commit for card in cards if not card.retired}
        with Session(fresh_db) as session:
            kept = set(session.scalars(select(Snapshot.commit)))
            orphans = session.scalar(select(func.count()).select_from(OccurrenceSpan).where(~select(Snapshot.id).where(
                Snapshot.id >= OccurrenceSpan.first_snapshot,
                (OccurrenceSpan.last_snapshot.is_(None)) | (Snapshot.id <= OccurrenceSpan.last_snapshot)).exists()))
    assert folded and not kept & set(folded) and len(kept) < 2 + len(refreshed)
    assert {refreshed[-1], history_repo.shas[100]} <= kept and orphans == 0
    build_site(fresh_db, replace(site, out=tmp_path / "full", incremental=False))
    assert site_files(tmp_path / "site") == site_files(tmp_path / "full")


def test_folding_keeps_a_commit_tagged_after_its_crawl_and_one_that_evidence_was_filed_under(git_repo, fresh_db):
    from sqlalchemy import insert

    from jax_errors.crawler.refresh import refresh
    from jax_errors.db.models import Reproduction

    raising = "def f(x):\n    raise ValueError(f'bad {x}')\n"
    first = git_repo.commit({"jax/core.py": raising}, "one")
    tagged = git_repo.commit({"jax/other.py": "def g():\n    raise TypeError('no')\n"}, "two")
    filed = git_repo.commit({"jax/third.py": "def h():\n    raise KeyError('k')\n"}, "three")
    with JaxRepository(git_repo.path) as repository:
        crawl_history(fresh_db, repository, first)
        crawl_snapshot(fresh_db, repository.snapshot(first))
        refresh(fresh_db, repository, tagged, fold=True)
        git_repo.repo.create_tag("jax-v0.0.9", ref=tagged)  # tagged once its snapshot was crawled
        refresh(fresh_db, repository, filed, fold=True)
        with Session(fresh_db) as session, session.begin():
            snapshot_id = session.scalar(select(Snapshot.id).where(Snapshot.commit == filed))
            session.execute(insert(Reproduction), [{
                "case_name": "a_case", "jax_version": "0.0.9", "status": "reproduced", "snapshot_id": snapshot_id,
                "expected": "", "frames": [], "fixed_ok": True, "duration": 0.1, "ran_at": START}])
        # Every reading of core.py, other.py and third.py changes: no card cites the three commits any more.
        moved = {path: "# moved\n" + text for path, text in {
            "jax/core.py": raising, "jax/other.py": "def g():\n    raise TypeError('no')\n",
            "jax/third.py": "def h():\n    raise KeyError('k')\n"}.items()}
        last = git_repo.commit(moved, "four")
    with JaxRepository(git_repo.path) as repository:  # as the next refresh's process: it lists the new tag
        report = refresh(fresh_db, repository, last, fold=True)
    with Session(fresh_db) as session:
        kept = set(session.scalars(select(Snapshot.commit)))
    assert report.folded == [first] and kept == {tagged, filed, last}


def test_folding_keeps_a_snapshot_holding_an_error_no_other_snapshot_holds(git_repo, fresh_db):
    """An error raised for a few commits between two refreshes keeps a snapshot, and with it its card."""
    from jax_errors.crawler.refresh import refresh
    from jax_errors.site_gen.catalogue import load_catalogue

    first = git_repo.commit({"jax/core.py": "def f(x):\n    raise ValueError(f'bad {x}')\n"}, "one")
    brief = "def g():\n    raise TypeError('only raised for a while')\n"
    added = git_repo.commit({"jax/brief.py": brief}, "two")
    touched = git_repo.commit({"jax/brief.py": "# a comment\n" + brief}, "three")
    removed = git_repo.commit({"jax/brief.py": None}, "four")
    with JaxRepository(git_repo.path) as repository:
        crawl_history(fresh_db, repository, first)
        crawl_snapshot(fresh_db, repository.snapshot(first))
        folded = [commit for commit in (added, touched, removed)
                  for commit in refresh(fresh_db, repository, commit, fold=True).folded]
    with Session(fresh_db) as session:
        kept = set(session.scalars(select(Snapshot.commit)))
    # `added` was folded while `touched` held the error too; once it is gone, `touched` alone holds it.
    assert folded == [added] and kept == {first, touched, removed}
    [card] = [card for card in load_catalogue(fresh_db).cards.values() if card.location.path == "jax/brief.py"]
    assert card.retired and card.history.first.commit == touched
    assert [event.kind for event in card.history.commits.events] == ["added", "removed"]


def test_refresh_folds_commit_snapshots_only_when_asked(history_repo, tmp_path):
    repo, start = str(history_repo.path), history_repo.shas[230]

    def snapshots(db: Path) -> set[str]:
        with Session(open_database(db)) as session:
            return set(session.scalars(select(Snapshot.commit)))

    for db in (tmp_path / "kept.db", tmp_path / "folded.db"):
        ok("crawl", "--repo", repo, "--history", "--rev", start, "--db", str(db))
        ok("crawl", "--repo", repo, "--rev", start, "--db", str(db))
    kept = ok("refresh", "--repo", repo, "--no-reproduce", "--db", str(tmp_path / "kept.db"))
    folded = ok("refresh", "--repo", repo, "--no-reproduce", "--fold-commit-snapshots", "--db", str(tmp_path / "folded.db"))
    assert "crawled 9 new commits" in kept and snapshots(tmp_path / "kept.db") == set(history_repo.shas[230:])
    assert "crawled 1 new commits" in folded and history_repo.shas[-1] in snapshots(tmp_path / "folded.db")
    assert len(snapshots(tmp_path / "folded.db")) <= 2


def blob_errors(engine) -> dict[str, tuple]:
    with Session(engine) as session:
        return {sha: (version, errors, error) for sha, version, errors, error in session.execute(
            select(BlobErrors.sha, BlobErrors.extractor_version, BlobErrors.errors, BlobErrors.parse_error))}


def test_a_lineage_is_present_through_its_rewordings(fresh_db):
    """Two ids of one error (reworded at 4), one more present from the start: one presence, ended by commit 7."""
    from sqlalchemy import insert

    with Session(fresh_db) as session, session.begin():
        session.execute(insert(HistoryCommit), [
            {"position": n, "commit": f"{n:040x}", "committed_at": START + timedelta(days=n),
             "releases": ["jax-v0.0.2"] if n == 5 else []} for n in range(1, 9)])
        session.execute(insert(ErrorSpan), [
            {"error_id": "a" * 16, "path": "jax/x.py", "first_position": 1, "last_position": 3},
            {"error_id": "b" * 16, "path": "jax/x.py", "first_position": 4, "last_position": 6},
            {"error_id": "b" * 16, "path": "jax/y.py", "first_position": 1, "last_position": None},
            {"error_id": "c" * 16, "path": "jax/z.py", "first_position": 2, "last_position": 2},
        ])
        session.execute(insert(HistoryEvent), [
            {"position": 4, "kind": "reworded", "error_id": "b" * 16, "previous_id": "a" * 16, "path": "jax/x.py",
             "function": "f", "previous_function": "f", "template": "new {}", "previous_template": "old {}"}])
    with Session(fresh_db) as session:
        line = LineHistory.read(session)
    history = line.of("b" * 16)
    assert line.lineage("b" * 16) == ["b" * 16, "a" * 16]
    assert [(p.first.position, p.last) for p in history.presence] == [(1, None)]
    assert history.present_at_start and history.removed_at is None and history.releases == ("jax-v0.0.2",)
    assert [(e.kind, e.at.position) for e in history.events] == [("reworded", 4)]
    gone = line.of("c" * 16)
    assert [(p.first.position, p.last.position) for p in gone.presence] == [(2, 2)]
    assert gone.removed_at.position == 3 and gone.releases == () and not gone.present_at_start
    assert line.of("d" * 16) is None


def test_releases_read_as_runs_of_the_line(fresh_db):
    from sqlalchemy import insert

    tags = {2: ["jax-v0.1.0"], 3: ["jax-v0.1.1"], 5: ["jax-v0.2.0", "jax-v0.2.1"], 7: ["jax-v0.3.0"], 8: ["jax-v0.3.1"]}
    with Session(fresh_db) as session, session.begin():
        session.execute(insert(HistoryCommit), [
            {"position": n, "commit": f"{n:040x}", "committed_at": START + timedelta(days=n),
             "releases": tags.get(n, [])} for n in range(1, 9)])
        session.execute(insert(ErrorSpan), [
            {"error_id": "a" * 16, "path": "jax/x.py", "first_position": 1, "last_position": 5},
            {"error_id": "a" * 16, "path": "jax/x.py", "first_position": 8, "last_position": None}])
    with Session(fresh_db) as session:
        history = LineHistory.read(session).of("a" * 16)
    assert history.releases == ("jax-v0.1.0", "jax-v0.1.1", "jax-v0.2.0", "jax-v0.2.1", "jax-v0.3.1")
    assert history.release_runs == (("jax-v0.1.0", "jax-v0.2.1", 4), ("jax-v0.3.1", "jax-v0.3.1", 1))
