"""The folder a site is built into: written in full, or rewriting only the files that changed.

A build leaves a manifest in `MARKER`: the fingerprint of the generator that made it (the code
of `jax_errors`, the site's templates and static files), the hash of every file it wrote, a
fingerprint of each card's inputs, and the fragments pages share (`SiteOutput.piece`) with their
inputs' fingerprints. The next build by the same generator re-renders only the cards and fragments
whose inputs changed, writes only the files whose bytes changed, and deletes the files it no longer
makes; a different generator, or a folder without a manifest, gets a full build into an emptied
folder. Either way the result is the same bytes.

Once the search index is made, the manifest also holds a hash of what Pagefind indexed of each
page (`search.searchable_document`): a build keeps the index of each shard whose pages hash alike
(`search_index`). Beside the manifest, `search_sources.SOURCES_DIR` holds those documents, which
Pagefind reads.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata, resources
from pathlib import Path

import orjson

from jax_errors.exceptions import SiteError
from jax_errors.faults import checkpoint
from jax_errors.site_gen.search import searchable_document

# A file that marks a folder as a build of ours, so a rebuild may empty it and nothing else.
MARKER = ".jax-errors-site"
MANIFEST_VERSION = 1
BUILDING = "being built by jax-errors build; emptied by the next build\n"




def digest(data: str | bytes) -> str:
    return hashlib.sha256(data.encode("utf-8") if isinstance(data, str) else data).hexdigest()


# The libraries a page or record is made with, besides Python: another version may word one otherwise.
MADE_WITH = ("Jinja2", "MarkupSafe", "markdown-it-py", "PyYAML", "orjson", "rapidfuzz", "fastjsonschema")


def generator_fingerprint() -> str:
    """A hash of what makes the site: any change to it means every page may change.

    Every file of `jax_errors`, not only `site_gen` (a card's page and record derive from its fields
    through code of other stages too: a template's title, the lookup index), and the versions of
    Python and of the libraries in MADE_WITH (`ast.unparse` writes a guard's words, markdown-it a
    curated text's HTML).
    """
    package = resources.files("jax_errors")
    hasher = hashlib.sha256(_made_with().encode())
    pending = [package]
    while pending:
        folder = pending.pop()
        for item in sorted(folder.iterdir(), key=lambda i: i.name):
            if item.is_dir():
                if item.name != "__pycache__":
                    pending.append(item)
            elif item.name.endswith((".py", ".html", ".css", ".js", ".json")):
                hasher.update(item.name.encode() + b"\0" + item.read_bytes() + b"\0")
    return hasher.hexdigest()


def _made_with() -> str:
    versions = [f"Python {sys.version}"]
    for name in MADE_WITH:
        try:
            versions.append(f"{name} {metadata.version(name)}")
        except metadata.PackageNotFoundError:
            versions.append(f"{name} absent")
    return "\n".join(versions)


@dataclass
class SiteOutput:
    """Writes one build into `out`, counting what it rewrote, left alone and removed."""

    out: Path
    generator: str
    previous_files: dict[str, str] = field(default_factory=dict)
    previous_inputs: dict[str, str] = field(default_factory=dict)
    previous_searchable: dict[str, str] = field(default_factory=dict)
    previous_pieces: dict[str, list[str]] = field(default_factory=dict, repr=False)
    files: dict[str, str] = field(default_factory=dict)
    on_disk: set[str] | None = field(default=None, repr=False)  # the folder's files when first asked (`_on_disk`)
    inputs: dict[str, str] = field(default_factory=dict)
    pieces: dict[str, list[str]] = field(default_factory=dict, repr=False)  # key -> [inputs, text] (`piece`)
    searchable: dict[str, str] = field(default_factory=dict)  # page -> hash of what Pagefind indexes of it
    documents: dict[str, str] = field(default_factory=dict, repr=False)  # those made by this build
    search: bool = True  # the build makes a search index: hash what it indexes
    rewritten: int = 0
    unchanged: int = 0
    removed: int = 0

    @classmethod
    def open(cls, out: Path, *, incremental: bool = True, settings: str = "", search: bool = True) -> SiteOutput:
        """Ready `out` for a build: keep an earlier build of this generator, else start empty.

        `settings` is what else every page depends on (the report link): another value is another generator.
        `search`: the build makes a search index, so what Pagefind indexes of each page is hashed.

        Raises:
            SiteError: `out` is a file, or a non-empty folder holding no earlier build.
        """
        out = Path(out)
        generator = generator_fingerprint() + (f"+{digest(settings)}" if settings else "")
        if out.exists():
            if not out.is_dir():
                raise SiteError(f"{out} is not a folder")
            if any(out.iterdir()) and not (out / MARKER).exists():
                raise SiteError(f"{out} is not empty and holds no earlier build: refusing to replace it")
        manifest = _read_manifest(out / MARKER)
        out.mkdir(parents=True, exist_ok=True)
        # Until `finish`, the folder holds no manifest, only the marker: a build cut short (even
        # while it empties the folder) leaves the next one a full build, never a refusal.
        (out / MARKER).write_text(BUILDING, encoding="utf-8")
        if incremental and manifest.get("generator") == generator:
            return cls(out, generator, dict(manifest.get("files", {})), dict(manifest.get("inputs", {})),
                       dict(manifest.get("searchable", {})), dict(manifest.get("pieces", {})), search=search)
        for child in out.iterdir():
            if child.name != MARKER:
                shutil.rmtree(child) if child.is_dir() and not child.is_symlink() else child.unlink()
        return cls(out, generator, search=search)

    def write(self, page: str, data: str | bytes) -> None:
        """Write `page` (site-relative) unless it already holds exactly `data`."""
        hashed = digest(data)
        self.files[page] = hashed
        path = self.out / page
        if self.previous_files.get(page) == hashed and self._on_disk(page):
            self.unchanged += 1
            self._keep_searchable(page, data)
            return
        self._note_searchable(page, data)
        path.parent.mkdir(parents=True, exist_ok=True)
        checkpoint("site:write")
        path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
        self.rewritten += 1

    def reusable(self, key: str, inputs: str, pages: list[str]) -> bool:
        """Whether `pages`, made from inputs fingerprinted `inputs`, are on disk from the last build.

        When they are, they count as written unchanged; otherwise the caller renders and writes them.
        """
        self.inputs[key] = inputs
        if self.previous_inputs.get(key) != inputs:
            return False
        if not all(page in self.previous_files and self._on_disk(page) for page in pages):
            return False
        for page in pages:
            self.files[page] = self.previous_files[page]
            self._keep_searchable(page, None)
        self.unchanged += len(pages)
        return True

    def piece(self, key: str, inputs: str, make: Callable[[], str]) -> str:
        """A fragment several pages share (a card's row in the error tables), made from inputs fingerprinted
        `inputs`: made once a build, and then only if the last build's was made from other inputs."""
        made = self.pieces.get(key)
        if made is None or made[0] != inputs:
            kept = self.previous_pieces.get(key)
            same = isinstance(kept, list) and len(kept) == 2 and kept[0] == inputs and isinstance(kept[1], str)
            made = self.pieces[key] = [inputs, kept[1] if same else make()]  # a manifest edited by hand: made again
        return made[1]

    def _on_disk(self, page: str) -> bool:
        """Whether `page` is in the folder, as listed once, when first asked, before this build writes it
        (a page of the last build someone deleted is not)."""
        if self.on_disk is None:
            self.on_disk = set()
            root = len(str(self.out)) + 1
            for folder, folders, names in os.walk(self.out):
                folders[:] = [name for name in folders if not name.startswith(".")]  # bookkeeping, not pages
                self.on_disk.update(os.path.join(folder, name)[root:].replace(os.sep, "/") for name in names)
        return page in self.on_disk

    def _keep_searchable(self, page: str, data: str | bytes | None) -> None:
        """An unchanged page is indexed as before: its hash carries over (or is made, if the last index lacks it)."""
        if not self.search:
            return
        if page in self.previous_searchable:
            self.searchable[page] = self.previous_searchable[page]
        elif page.endswith(".html"):
            self._note_searchable(page, data if data is not None else (self.out / page).read_bytes())

    def _note_searchable(self, page: str, data: str | bytes) -> None:
        if self.search and page.endswith(".html"):
            document = searchable_document(data.decode("utf-8") if isinstance(data, bytes) else data)
            if document is not None:
                self.searchable[page] = digest(document)
                self.documents[page] = document

    def searchable_document(self, page: str) -> str:
        """What Pagefind indexes of `page`, a searchable page of this build."""
        if page not in self.documents:
            self.documents[page] = searchable_document(self.read(page))
        return self.documents[page]

    def previous_bytes(self, page: str) -> bytes | None:
        """What the last build wrote to `page`, if the folder still holds exactly that.

        A file that changed since is written again by this build, whatever it writes.
        """
        try:
            data = (self.out / page).read_bytes()
        except OSError:
            return None
        if page in self.previous_files and digest(data) == self.previous_files[page]:
            return data
        if self._on_disk(page):
            self.on_disk.discard(page)  # changed since: written again, even with the bytes the manifest records
        return None

    def read(self, page: str) -> str:
        return (self.out / page).read_text(encoding="utf-8")

    def finish(self) -> None:
        """Delete what the last build wrote and this one did not, then record the manifest."""
        for page in sorted(self.previous_files.keys() - self.files.keys()):
            path = self.out / page
            if path.is_file():
                path.unlink()
                self.removed += 1
            _prune_empty(path.parent, self.out)
        checkpoint("site:manifest")
        self._write_manifest(searchable=False)

    def finish_search_index(self) -> None:
        """Record that the search index now indexes this build's pages: the next build keeps what indexes the same."""
        self._write_manifest(searchable=True)

    def _write_manifest(self, *, searchable: bool) -> None:
        manifest = {"version": MANIFEST_VERSION, "generator": self.generator,
                    "files": dict(sorted(self.files.items())), "inputs": dict(sorted(self.inputs.items())),
                    "pieces": dict(sorted(self.pieces.items()))}
        if searchable:
            manifest["searchable"] = dict(sorted(self.searchable.items()))
        # Whole or not at all: the manifest is what says the folder holds a finished build.
        partial = self.out / f"{MARKER}.partial"
        partial.write_bytes(orjson.dumps(manifest, option=orjson.OPT_INDENT_2 | orjson.OPT_APPEND_NEWLINE))
        partial.replace(self.out / MARKER)


def cut_short(out: Path) -> bool:
    """Whether `out` holds a build that did not run to its end (killed, or still running): a marker, no manifest."""
    marker = Path(out) / MARKER
    return marker.exists() and not _read_manifest(marker)


def _read_manifest(path: Path) -> dict:
    """The manifest of an earlier build; empty when there is none or it does not parse."""
    try:
        manifest = orjson.loads(path.read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return {}
    return manifest if isinstance(manifest, dict) and manifest.get("version") == MANIFEST_VERSION else {}


def _prune_empty(folder: Path, root: Path) -> None:
    while folder != root and folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()
        folder = folder.parent
