"""An incremental build renders only the cards whose data changed, and equals a full build byte for byte."""

import gzip
import json
import textwrap
import zipfile
from pathlib import Path

import pytest
from site_pages import site_files
from sqlalchemy import select
from sqlalchemy.orm import Session

from jax_errors.crawler.crawl import crawl_snapshot
from jax_errors.crawler.repository import JaxRepository
from jax_errors.db.models import Snapshot
from jax_errors.site_gen import output
from jax_errors.site_gen.build import SiteConfig, build_site
from jax_errors.site_gen.links import card_path
from jax_errors.site_gen.output import BUILDING, MARKER
from jax_errors.site_gen.search_index import shard_list, shard_of
from jax_errors.site_gen.search_sources import SOURCES_DIR


@pytest.fixture
def catalogue(fresh_db, git_repo, two_errors):
    """A database of one commit, and a function crawling a second one that rewords `check`'s error."""
    first = git_repo.commit(two_errors, "one")
    with JaxRepository(git_repo.path) as repository:
        crawl_snapshot(fresh_db, repository.snapshot(first))

    def reword() -> str:
        second = git_repo.commit({"jax/core.py": two_errors["jax/core.py"].replace("got {x}", "but got {x}")}, "two")
        with JaxRepository(git_repo.path) as repository:
            crawl_snapshot(fresh_db, repository.snapshot(second))
        return second
    return fresh_db, reword


def build(engine, out: Path, **options):
    config = SiteConfig(out=out, knowledge_dir=out.parent / "no-knowledge", cases_dir=out.parent / "no-cases",
                        search=options.pop("search", False), **options)
    return build_site(engine, config)


def searchable(site: Path) -> dict[str, str]:
    """What the last finished search index of `site` indexes: page -> hash of its document."""
    return json.loads((site / MARKER).read_text())["searchable"]


def fragments(site: Path) -> dict[Path, int]:
    """The page fragments of every shard of `site`'s search index, with their times of writing."""
    return {path: path.stat().st_mtime_ns for path in (site / "pagefind").glob("*/fragment/*.pf_fragment")}


def other_card(engine) -> str:
    from jax_errors.db.models import Occurrence

    with Session(engine) as session:
        return session.scalar(select(Occurrence.error_id).where(Occurrence.path == "jax/other.py"))


def test_a_rebuild_of_the_same_catalogue_writes_nothing(catalogue, tmp_path):
    engine, _ = catalogue
    first = build(engine, tmp_path / "site")
    again = build(engine, tmp_path / "site")
    assert first.rendered == first.cards == 2 and first.unchanged == 0
    assert (again.rendered, again.rewritten, again.removed) == (0, 0, 0)
    assert again.unchanged == first.rewritten == len(site_files(tmp_path / "site")) - 1  # all but the manifest


def test_after_a_new_commit_only_touched_cards_render_and_the_bytes_equal_a_full_build(catalogue, tmp_path):
    engine, reword = catalogue
    build(engine, tmp_path / "site")
    untouched = tmp_path / "site" / card_path(other_card(engine))
    before = untouched.stat().st_mtime_ns
    reword()
    incremental = build(engine, tmp_path / "site")
    full = build(engine, tmp_path / "full", incremental=False)
    assert site_files(tmp_path / "site") == site_files(tmp_path / "full")
    assert full.rendered == full.cards == 3
    assert incremental.rendered == 2  # the old wording, now retired, and the new one
    assert untouched.stat().st_mtime_ns == before


def test_a_card_row_is_made_again_only_for_a_changed_card_and_reads_as_when_made(catalogue, tmp_path, monkeypatch):
    engine, reword = catalogue
    made: list[str] = []
    real = output.SiteOutput.piece

    def counted(self, key, inputs, make):
        return real(self, key, inputs, lambda: made.append(key) or make())
    monkeypatch.setattr(output.SiteOutput, "piece", counted)
    build(engine, tmp_path / "site")
    assert len(made) == 2  # each card's row, rendered once for the folders one deep
    made.clear()
    build(engine, tmp_path / "site")
    assert made == []
    reword()
    build(engine, tmp_path / "site")
    assert len(made) == 2  # the retired wording's row and the new wording's, not the untouched card's
    assert f"row:../{other_card(engine)}" not in made
    build(engine, tmp_path / "full", incremental=False)
    assert site_files(tmp_path / "site") == site_files(tmp_path / "full")


def test_a_spoilt_row_kept_in_the_manifest_is_made_again(catalogue, tmp_path):
    engine, _ = catalogue
    build(engine, tmp_path / "site")
    manifest = json.loads((tmp_path / "site" / MARKER).read_text(encoding="utf-8"))
    first, second = sorted(manifest["pieces"])
    manifest["pieces"][first] = "a row"
    manifest["pieces"][second] = [manifest["pieces"][second][0], 7]
    (tmp_path / "site" / MARKER).write_text(json.dumps(manifest), encoding="utf-8")
    build(engine, tmp_path / "site")
    build(engine, tmp_path / "full", incremental=False)
    assert site_files(tmp_path / "site") == site_files(tmp_path / "full")


def test_files_a_build_no_longer_makes_are_removed(catalogue, tmp_path):
    engine, reword = catalogue
    second = reword()
    build(engine, tmp_path / "site")
    with Session(engine) as session, session.begin():
        session.delete(session.scalar(select(Snapshot).where(Snapshot.commit == second)))
    report = build(engine, tmp_path / "site")
    build(engine, tmp_path / "full", incremental=False)
    assert report.removed == 3  # the new wording's page and JSON record, and the page of the diff
    assert not (tmp_path / "site" / "diffs" / f"{second[:10]}.html").exists()
    assert site_files(tmp_path / "site") == site_files(tmp_path / "full")


def test_a_build_cut_short_or_a_changed_generator_means_a_full_build(catalogue, tmp_path, monkeypatch):
    engine, _ = catalogue
    build(engine, tmp_path / "site")
    (tmp_path / "site" / MARKER).write_text(BUILDING)  # what a build that died half-way leaves
    assert build(engine, tmp_path / "site").rendered == 2
    monkeypatch.setattr(output, "generator_fingerprint", lambda: "another generator")
    assert build(engine, tmp_path / "site").rendered == 2
    assert build(engine, tmp_path / "site").rendered == 0


def test_the_search_index_is_kept_when_no_page_changed(catalogue, tmp_path):
    engine, reword = catalogue
    first = build(engine, tmp_path / "site", search=True)
    entries = {path: path.stat().st_mtime_ns for path in (tmp_path / "site" / "pagefind").glob("*/pagefind-entry.json")}
    assert len(entries) == len({shard_of(page) for page in searchable(tmp_path / "site")}) == 2
    again = build(engine, tmp_path / "site", search=True)
    assert again.indexed == first.indexed == 2 and not again.searched
    assert {path: path.stat().st_mtime_ns for path in entries} == entries
    reword()
    assert build(engine, tmp_path / "site", search=True).indexed == 3


def test_a_build_cut_short_while_emptying_its_folder_does_not_stop_the_next(catalogue, tmp_path, monkeypatch):
    engine, _ = catalogue
    build(engine, tmp_path / "site")
    real_rmtree = output.shutil.rmtree

    def killed(path, *args, **kwargs):
        real_rmtree(path, *args, **kwargs)
        raise KeyboardInterrupt  # killed after the first folder went

    monkeypatch.setattr(output.shutil, "rmtree", killed)
    with pytest.raises(KeyboardInterrupt):
        build(engine, tmp_path / "site", incremental=False)
    monkeypatch.undo()
    assert (tmp_path / "site" / MARKER).read_text() == BUILDING
    report = build(engine, tmp_path / "site")
    assert report.cards == 2 and site_files(tmp_path / "site") == site_files(build(engine, tmp_path / "full").out)


def test_a_search_index_pagefind_left_unfinished_is_made_again(catalogue, tmp_path, monkeypatch):
    from jax_errors.exceptions import SearchIndexError
    from jax_errors.site_gen import search_index

    engine, _ = catalogue

    class DiskFull(search_index.IndexRun):
        def wait(self):
            super().wait()
            (self.bundle / "pagefind-entry.json").write_text("")  # what a full disk leaves
            raise SearchIndexError("pagefind failed (1): No space left on device")

    monkeypatch.setattr(search_index, "IndexRun", DiskFull)
    with pytest.raises(SearchIndexError):
        build(engine, tmp_path / "site", search=True)
    assert not (tmp_path / "site" / "pagefind").exists()
    assert "searchable" not in json.loads((tmp_path / "site" / MARKER).read_text())  # no index is claimed
    monkeypatch.undo()
    report = build(engine, tmp_path / "site", search=True)
    assert report.indexed == 2 and report.rewritten == 0  # the pages stood; only the index was made


def test_every_card_links_to_the_report_url_and_a_new_one_renders_every_card_again(catalogue, tmp_path):
    import html
    import re
    import urllib.parse

    from click.testing import CliRunner

    from jax_errors.cli import cli

    engine, _ = catalogue
    template = "https://example.org/issues/new?title={title}&body=card+{id}"
    first = build(engine, tmp_path / "site", report_url=template)
    card_id = other_card(engine)
    page = (tmp_path / "site" / card_path(card_id)).read_text(encoding="utf-8")
    [title] = re.findall(r'<a href="https://example\.org/issues/new\?title=([^&"]*)&amp;body=card\+' + card_id
                         + r'">Report a problem with this card</a>', page)
    assert html.unescape(urllib.parse.unquote(title)) in html.unescape(page.split("<h1")[1].split("</h1>")[0])
    again = build(engine, tmp_path / "site", report_url=template.replace("example.org", "example.com"))
    assert first.rendered == again.rendered == 2  # another link: every card written again
    assert "example.com/issues/new" in (tmp_path / "site" / card_path(card_id)).read_text(encoding="utf-8")
    without = build(engine, tmp_path / "site")
    assert without.rendered == 2 and "Report a problem" not in (tmp_path / "site" / card_path(card_id)).read_text()
    result = CliRunner().invoke(cli, ["build", "--db", str(tmp_path / "x.db"), "--out", str(tmp_path / "o"),
                                      "--report-url", "https://example.org/{card}"])
    assert result.exit_code == 2 and "only {id} and {title}" in result.output


def test_a_commit_that_only_moves_raises_keeps_the_search_index_and_it_equals_a_fresh_one(
        catalogue, git_repo, two_errors, tmp_path, monkeypatch):
    from jax_errors.site_gen import search_index

    engine, reword = catalogue
    build(engine, tmp_path / "site", search=True)
    source = textwrap.dedent(two_errors["jax/core.py"]).lstrip()
    shifted = git_repo.commit({"jax/core.py": "# a comment moves the raise down a line\n" + source}, "shift")
    with JaxRepository(git_repo.path) as repository:
        crawl_snapshot(engine, repository.snapshot(shifted))
    runs = []

    class Counted(search_index.IndexRun):
        def __init__(self, sources, bundle, **kwargs):
            runs.append(bundle.parent.parent)
            super().__init__(sources, bundle, **kwargs)

    monkeypatch.setattr(search_index, "IndexRun", Counted)
    moved = build(engine, tmp_path / "site", search=True)
    assert moved.rendered >= 1 and moved.rewritten > 0  # the card's source and line changed...
    assert runs == [] and moved.indexed == 2 and not moved.searched  # ...not what Pagefind indexes of it
    fresh = build(engine, tmp_path / "fresh", search=True, incremental=False)
    assert site_files(tmp_path / "site") == site_files(fresh.out)  # the index kept is the one a full build makes
    assert build(engine, tmp_path / "site", search=True).indexed == 2 and runs == [fresh.out] * 2  # two shards
    reword()
    assert build(engine, tmp_path / "site", search=True).indexed == 3 and runs[2:] == [tmp_path / "site"] * 2


def test_an_index_made_again_in_place_writes_only_changed_files_and_equals_a_fresh_one(catalogue, tmp_path):
    from jax_errors.site_gen.pagefind_bundle import referenced_files

    engine, reword = catalogue
    build(engine, tmp_path / "site", search=True)
    sources = tmp_path / "site" / SOURCES_DIR
    before = fragments(tmp_path / "site")
    other = card_path(other_card(engine))
    untouched_source = (sources / shard_of(other) / other).stat().st_mtime_ns
    assert len(before) == 2 and len(list(sources.rglob("*.html"))) == 2
    reword()
    again = build(engine, tmp_path / "site", search=True)
    after = fragments(tmp_path / "site")
    assert again.searched and again.indexed == 3
    kept = before.keys() & after.keys()
    assert len(kept) == 2 and all(before[path] == after[path] for path in kept)  # Pagefind left them as they were
    assert len(after) == 3  # the reworded card's old fragment is gone, its new one and the new card's came
    for path in after:
        assert f"fragment/{path.name}" in referenced_files(path.parent.parent)
    assert (sources / shard_of(other) / other).stat().st_mtime_ns == untouched_source
    fresh = build(engine, tmp_path / "fresh", search=True, incremental=False)
    assert site_files(tmp_path / "site") == site_files(fresh.out)


def test_pagefind_reads_again_only_the_shards_whose_pages_changed(catalogue, tmp_path):
    engine, reword = catalogue
    site = tmp_path / "site"
    build(engine, site, search=True)
    before = searchable(site)
    other = site / "pagefind" / shard_of(card_path(other_card(engine)))
    untouched = {path: path.stat().st_mtime_ns for path in other.rglob("*")}
    reword()
    again = build(engine, site, search=True)
    after = searchable(site)
    changed = {shard_of(page) for page in after if before.get(page) != after[page]}
    assert again.searched and again.indexed == 3 and len(changed) == 2 and other.name not in changed
    assert {path: path.stat().st_mtime_ns for path in other.rglob("*")} == untouched
    assert (site / "pagefind" / "shards.js").read_text() == shard_list(sorted({*changed, other.name}, key=int))
    assert site_files(site) == site_files(build(engine, tmp_path / "fresh", search=True).out)


def test_a_shard_left_without_pages_goes_and_the_search_page_merges_the_rest(catalogue, tmp_path, monkeypatch):
    from jax_errors.site_gen import search_index

    engine, _ = catalogue
    site = tmp_path / "site"
    build(engine, site, search=True)
    assert sorted(path.name for path in (site / "pagefind").iterdir() if path.is_dir()) == ["0", "3"]
    # As if every page moved to shard 0, which held one of them: its index is made again, of both.
    monkeypatch.setattr(search_index, "shard_of", lambda page: "0")
    report = build(engine, site, search=True)
    assert report.searched and report.indexed == 2
    assert sorted(path.name for path in (site / "pagefind").iterdir() if path.is_dir()) == ["0"]
    assert sorted(path.name for path in (site / SOURCES_DIR).iterdir()) == ["0"]
    assert (site / "pagefind" / "shards.js").read_text() == 'window.jaxErrorsSearchShards = ["0"];\n'
    assert (site / "pagefind" / "pagefind-ui.js").read_bytes() == (site / "pagefind" / "0" / "pagefind-ui.js").read_bytes()


def test_pagefind_runs_already_started_stop_when_a_later_shard_cannot_be_written(catalogue, tmp_path, monkeypatch):
    from jax_errors.site_gen import search_index

    engine, _ = catalogue
    started, synced = [], []
    real_sync = search_index.sync_sources

    class Watched(search_index.IndexRun):
        def __init__(self, sources, bundle, **kwargs):
            super().__init__(sources, bundle, **kwargs)
            started.append(self)

    def second_shard_fills_the_disk(folder, documents, document_of):
        synced.append(folder)
        if len(synced) == 2:
            raise OSError(28, "No space left on device")
        return real_sync(folder, documents, document_of)

    monkeypatch.setattr(search_index, "IndexRun", Watched)
    monkeypatch.setattr(search_index, "sync_sources", second_shard_fills_the_disk)
    with pytest.raises(OSError, match="No space left"):
        build(engine, tmp_path / "site", search=True)
    assert len(started) == 1 and started[0].process.returncode is not None  # stopped, not left writing
    assert not (tmp_path / "site" / "pagefind").exists()


def test_a_shard_missing_the_search_pages_own_files_is_indexed_again(catalogue, tmp_path):
    engine, _ = catalogue
    site = tmp_path / "site"
    build(engine, site, search=True)
    (site / "pagefind" / "0" / "pagefind-ui.js").unlink()  # what the search page loads, via pagefind/
    again = build(engine, site, search=True)
    assert again.searched and again.indexed == 2
    assert site_files(site) == site_files(build(engine, tmp_path / "fresh", search=True).out)


def test_an_index_no_finished_build_vouches_for_is_made_whole(catalogue, tmp_path):
    engine, reword = catalogue
    build(engine, tmp_path / "site", search=True)
    manifest = json.loads((tmp_path / "site" / MARKER).read_text())
    del manifest["searchable"]  # what a build killed while Pagefind ran leaves
    (tmp_path / "site" / MARKER).write_text(json.dumps(manifest))
    [fragment] = [p for p in fragments(tmp_path / "site") if b"a name is needed" in gzip.decompress(p.read_bytes())]
    fragment.write_bytes(b"cut short")  # a file Pagefind would otherwise keep, having its name
    report = build(engine, tmp_path / "site", search=True)
    assert report.searched and fragment.read_bytes() != b"cut short"
    assert site_files(tmp_path / "site") == site_files(build(engine, tmp_path / "fresh", search=True).out)


def test_search_sources_cut_short_are_written_whole_and_strays_go(tmp_path):
    from jax_errors.site_gen.search_sources import LISTING, sync_sources

    folder = tmp_path / "sources"
    made = []

    def document_of(page):
        made.append(page)
        return f"<html>{page}</html>"

    assert sync_sources(folder, {"errors/a.html": "1", "errors/b.html": "2"}, document_of) == 2
    assert sync_sources(folder, {"errors/a.html": "1", "errors/b.html": "3"}, document_of) == 1
    assert made == ["errors/a.html", "errors/b.html", "errors/b.html"]
    (folder / LISTING).unlink()  # a sync killed midway
    (folder / "errors" / "stray.html").write_text("left by nobody")
    assert sync_sources(folder, {"errors/a.html": "1"}, document_of) == 1
    assert sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*.html")) == ["errors/a.html"]


def test_a_page_deleted_from_the_folder_is_written_again(catalogue, tmp_path):
    engine, _ = catalogue
    first = build(engine, tmp_path / "site")
    page = tmp_path / "site" / card_path(other_card(engine))
    written = page.read_bytes()
    page.unlink()
    (tmp_path / "site" / "index.html").unlink()
    again = build(engine, tmp_path / "site")
    assert page.read_bytes() == written and (tmp_path / "site" / "index.html").is_file()
    assert (again.rendered, again.rewritten) == (1, 2)  # the card's page (its record stood) and the home page
    assert again.unchanged == first.rewritten - 2


def test_a_bulk_archive_changed_on_disk_is_made_from_the_records(catalogue, tmp_path):
    engine, _ = catalogue
    build(engine, tmp_path / "site")
    (tmp_path / "site" / "api" / "all.zip").write_bytes(b"PK but truncated")
    again = build(engine, tmp_path / "site")
    assert (again.rendered, again.rewritten) == (0, 1)  # no card rendered: the archive read their records
    assert site_files(tmp_path / "site") == site_files(build(engine, tmp_path / "full", incremental=False).out)


def test_pagefind_runs_beside_the_rest_of_the_build_and_stops_when_it_fails(catalogue, tmp_path, monkeypatch):
    from jax_errors.site_gen import build as build_module
    from jax_errors.site_gen import search_index

    engine, _ = catalogue
    started = []

    class Watched(search_index.IndexRun):
        def __init__(self, sources, bundle, **kwargs):
            super().__init__(sources, bundle, **kwargs)
            started.append(self)

    def broken(out):
        assert len(started) == 2  # Pagefind runs (once for each of the two shards) while the static files are copied
        raise RuntimeError("the disk went away")

    monkeypatch.setattr(search_index, "IndexRun", Watched)
    monkeypatch.setattr(build_module, "_copy_static", broken)
    with pytest.raises(RuntimeError, match="disk went away"):
        build(engine, tmp_path / "site", search=True)
    assert len(started) == 2 and all(run.process.returncode is not None for run in started)  # stopped
    assert not (tmp_path / "site" / "pagefind").exists()


def test_a_searchable_page_written_after_the_cards_is_indexed_too(catalogue, tmp_path, monkeypatch):
    from jax_errors.site_gen import build as build_module

    engine, _ = catalogue
    real_copy_static = build_module._copy_static

    def with_a_searchable_page(out):
        real_copy_static(out)
        out.write("extra.html", '<html lang="en"><body><main data-pagefind-body><h1>Extra words</h1></main></body></html>')

    monkeypatch.setattr(build_module, "_copy_static", with_a_searchable_page)
    report = build(engine, tmp_path / "site", search=True)
    assert report.indexed == 3 and report.searched
    assert (tmp_path / "site" / ".jax-errors-search" / shard_of("extra.html") / "extra.html").is_file()


def test_a_new_fragment_named_like_one_kept_has_the_index_made_anew(catalogue, tmp_path, monkeypatch):
    from jax_errors.site_gen import search_index

    monkeypatch.setattr(search_index, "shard_of", lambda page: "0")  # the new fragment joins a kept index
    engine, reword = catalogue
    build(engine, tmp_path / "site", search=True)
    before = {path.relative_to(tmp_path / "site") for path in fragments(tmp_path / "site")}
    reword()
    fresh = build(engine, tmp_path / "fresh", search=True, incremental=False)
    new = sorted({path.relative_to(fresh.out) for path in fragments(fresh.out)} - before)
    assert new
    # As if a fragment kept from the last index had the name Pagefind gives a new one: it would not write it.
    (tmp_path / "site" / new[0]).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / "site" / new[0]).write_bytes(b"an older page's fragment")
    again = build(engine, tmp_path / "site", search=True)
    assert again.searched and again.indexed == 3
    assert site_files(tmp_path / "site") == site_files(fresh.out)


def test_the_second_core_makes_the_catalogue_wide_records_and_the_site_equals_one_made_alone(
        catalogue, tmp_path, monkeypatch, forking):
    import os

    from jax_errors import forked
    from jax_errors.site_gen import build as site_build

    engine, reword = catalogue
    reword()
    made_in = tmp_path / "made-in"
    made_in.mkdir()
    real = site_build._catalogue_records

    def noted(*args):
        (made_in / str(os.getpid())).touch()  # a child's side effects come back by file
        return real(*args)
    monkeypatch.setattr(site_build, "_catalogue_records", noted)
    here = str(os.getpid())
    beside = build(engine, tmp_path / "beside")
    made_by = [p.name for p in made_in.iterdir()]
    assert len(made_by) == 1 and made_by != [here]  # in a child
    monkeypatch.setattr(forked, "only_thread", lambda: False)  # as when a progress bar's thread runs: no fork
    alone = build(engine, tmp_path / "alone")
    assert sorted(p.name for p in made_in.iterdir()) == sorted([*made_by, here])
    assert site_files(tmp_path / "beside") == site_files(tmp_path / "alone")
    assert beside.rendered == alone.rendered == beside.cards == 3


def test_an_unchanged_catalogue_wide_record_is_kept_and_one_deleted_is_made_again(catalogue, tmp_path):
    engine, _ = catalogue
    build(engine, tmp_path / "site")
    written = {name: (tmp_path / "site" / "api" / name).read_bytes() for name in ("errors.json", "lookup.json")}
    for name in written:
        (tmp_path / "site" / "api" / name).unlink()
    again = build(engine, tmp_path / "site")
    assert {name: (tmp_path / "site" / "api" / name).read_bytes() for name in written} == written
    assert again.rewritten == 2
    kept = build(engine, tmp_path / "site")
    assert kept.rewritten == 0
    with zipfile.ZipFile(tmp_path / "site" / "api" / "all.zip") as archive:
        assert archive.read("errors.json") == written["errors.json"]  # read back from the kept file


def test_a_group_page_is_made_again_only_when_its_rows_change(catalogue, tmp_path, monkeypatch):
    from jax_errors.site_gen import build as build_module

    engine, reword = catalogue
    rendered: list[str] = []
    real = build_module.render_page
    monkeypatch.setattr(build_module, "render_page",
                        lambda template, page, **context: rendered.append(page) or real(template, page, **context))
    build(engine, tmp_path / "site")
    core, other = tmp_path / "site" / "modules" / "jax.core.html", tmp_path / "site" / "modules" / "jax.other.html"
    assert core.is_file() and other.is_file()
    # A group page does not name the newest commit: a commit that leaves its rows alone leaves it alone.
    assert "/tree/" not in other.read_text()
    before = other.stat().st_mtime_ns
    rendered.clear()
    second = reword()
    build(engine, tmp_path / "site")
    assert "modules/jax.core.html" in rendered and "modules/jax.other.html" not in rendered
    assert "classes/ValueError.html" in rendered  # the reworded card's class lists it
    assert other.stat().st_mtime_ns == before
    assert second[:10] in (tmp_path / "site" / "index.html").read_text()  # the home page names it
    build(engine, tmp_path / "full", incremental=False)
    assert site_files(tmp_path / "site") == site_files(tmp_path / "full")
