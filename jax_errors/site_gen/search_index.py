"""The site's full-text search index: one Pagefind bundle per shard of the searchable pages.

A page's shard is told by a hash of its path (`shard_of`). Pagefind indexes each shard's
documents (`search_sources`) into `pagefind/<shard>/`, and a build runs it again only over the
shards whose pages' indexed text changed: a commit that rewords an error re-reads a few hundred
documents, not the whole site's. The search page merges the shards (Pagefind's `mergeIndex`;
results are ranked by score across them): `pagefind/shards.js` names them, and the UI's own files
are copied to `pagefind/` from the first one.
"""

from __future__ import annotations

import shutil
import zlib
from collections.abc import Mapping
from pathlib import Path

from jax_errors.faults import checkpoint
from jax_errors.site_gen.output import SiteOutput
from jax_errors.site_gen.pagefind_bundle import UNREADABLE, indexed_pages, referenced_files
from jax_errors.site_gen.search import BUNDLE_DIR, IndexRun, fragment_changes
from jax_errors.site_gen.search_sources import SOURCES_DIR, listing_of, sync_sources

SHARDS = 8
SHARD_LIST = "shards.js"  # in BUNDLE_DIR: the shards the search page merges
UI_FILES = ("pagefind-ui.js", "pagefind-ui.css")  # what the search page loads from BUNDLE_DIR itself
# What the search page loads from a shard besides its index (`wasm.<language>.pagefind` too).
RUNTIME_FILES = ("pagefind.js", "pagefind-worker.js", *UI_FILES)


def shard_of(page: str) -> str:
    """The shard of a site-relative page: the same in every build."""
    return str(zlib.crc32(page.encode("utf-8")) % SHARDS)


def by_shard(searchable: Mapping[str, str]) -> dict[str, dict[str, str]]:
    """`searchable` (page -> hash of its document) split by shard; shards without pages are left out."""
    shards: dict[str, dict[str, str]] = {}
    for page, hashed in sorted(searchable.items()):
        shards.setdefault(shard_of(page), {})[page] = hashed
    return dict(sorted(shards.items(), key=lambda item: int(item[0])))


def shard_list(shards: list[str]) -> str:
    """The script naming the shards, in the order the search page merges them (the first is Pagefind's own)."""
    names = ", ".join(f'"{shard}"' for shard in shards)
    return f"window.jaxErrorsSearchShards = [{names}];\n"


class SearchIndex:
    """The site's search index, made while the build writes the pages Pagefind does not read.

    Started once the cards (the pages with a searchable part) are written. Most new commits only
    move raise sites within their files: the cards' sources change, not the text Pagefind indexes,
    and every shard is kept. Otherwise Pagefind indexes the documents of each shard that changed
    over that shard's last index, writing only what changed, all shards at once. An index no
    finished build vouches for (Pagefind failed, was killed, or the disk filled) is made whole.
    """

    def __init__(self, out: SiteOutput) -> None:
        self.out, self.root, self.sources = out, out.out / BUNDLE_DIR, out.out / SOURCES_DIR
        self.started_from = dict(out.searchable)
        self.shards = by_shard(out.searchable)
        previous = by_shard(out.previous_searchable)
        self._remove_other_shards()
        self.kept: dict[str, int] = {}
        self.runs: dict[str, IndexRun] = {}
        try:
            for shard, pages in self.shards.items():
                bundle = self.root / shard
                vouched = bool(out.previous_searchable) and _readable(bundle)
                # The shard's own listing too: the pages it was made of, whatever split the last build used.
                if vouched and previous.get(shard) == pages == listing_of(self.sources / shard):
                    self.kept[shard] = indexed_pages(bundle)
                else:
                    self.runs[shard] = self._index(shard, pages, keep=vouched)
        except BaseException:
            self.abandon()  # the shards' Pagefind runs started so far
            raise

    def _index(self, shard: str, pages: dict[str, str], *, keep: bool) -> IndexRun:
        bundle, sources = self.root / shard, self.sources / shard
        if bundle.exists() and not keep:
            shutil.rmtree(bundle)
        # Pages whose new fragment Pagefind must write: their text changed, not only its weights.
        changed = sum(1 for page, made in pages.items() if self.out.previous_searchable.get(page) != made
                      and fragment_changes(sources / page, self.out.searchable_document(page)))
        sync_sources(sources, pages, self.out.searchable_document)
        checkpoint("search:index")
        return IndexRun(sources, bundle, changed=changed)

    def _remove_other_shards(self) -> None:
        """Remove what the two folders hold beside this build's shards (shards left without pages, an older layout)."""
        for folder, files in ((self.root, {SHARD_LIST, *UI_FILES}), (self.sources, set())):
            if not folder.is_dir():
                continue
            for child in folder.iterdir():
                if child.is_dir() and child.name not in self.shards:
                    shutil.rmtree(child)
                elif not child.is_dir() and child.name not in files:
                    child.unlink()

    def finish(self) -> tuple[int, bool]:
        """The pages indexed, and whether Pagefind ran, once the index is made or kept.

        Raises:
            SearchIndexError: Pagefind failed.
        """
        if self.out.searchable != self.started_from:  # a page written since has a searchable part too
            self.abandon()
            return SearchIndex(self.out).finish()
        try:
            indexed = sum(self.kept.values()) + sum(run.wait() for run in self.runs.values())
            self._write_entry()
        except BaseException:
            self.abandon()
            raise
        self.out.finish_search_index()
        return indexed, bool(self.runs)

    def _write_entry(self) -> None:
        """What the search page loads from `pagefind/`: the shard list, and the UI's files from the first shard."""
        self.root.mkdir(parents=True, exist_ok=True)
        shards = list(self.shards)
        for name in UI_FILES:
            if shards:
                shutil.copyfile(self.root / shards[0] / name, self.root / name)
            else:
                (self.root / name).unlink(missing_ok=True)
        (self.root / SHARD_LIST).write_text(shard_list(shards), encoding="utf-8")

    def abandon(self) -> None:
        """Stop making the index (the build failed, or was interrupted): what Pagefind wrote so far goes."""
        for run in self.runs.values():
            run.stop()
        if self.runs:
            shutil.rmtree(self.root, ignore_errors=True)


def _readable(bundle: Path) -> bool:
    """Whether `bundle` holds an index that reads back (not one cut short, or gone), and what the page runs it with."""
    try:
        referenced_files(bundle)
    except UNREADABLE:
        return False
    return all((bundle / name).is_file() for name in RUNTIME_FILES) and any(bundle.glob("wasm.*.pagefind"))
