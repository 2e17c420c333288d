"""A Pagefind bundle on disk: which of its files the index refers to, and removing the rest.

Pagefind names its fragments and index chunks by their content and does not write a file that
already exists, so a bundle indexed again in place is written only where pages changed. It never
removes what the new index stopped referring to: `prune` does, which leaves the bundle equal to
one made into an empty folder.

What refers to what: `pagefind-entry.json` names each language's `pagefind.<hash>.pf_meta`; a meta
file (gzip of `pagefind_dcd` and CBOR) lists the pages (`fragment/<hash>.pf_fragment`), the word
index chunks (`index/<hash>.pf_index`) and the filter chunks (`filter/<hash>.pf_filter`).
"""

from __future__ import annotations

import gzip
import json
import struct
import zlib
from collections.abc import Collection
from pathlib import Path

ENTRY = "pagefind-entry.json"
SIGNATURE = b"pagefind_dcd"
# The folders of files named by their content; everything else in a bundle is written on every run.
SHORT_HASH = 7  # hex digits of a content hash that name a file, unless two of a run's files share them
# What reading a missing, cut-short or foreign bundle raises.
UNREADABLE = (OSError, EOFError, zlib.error, ValueError, KeyError, TypeError, IndexError)
HASHED_FOLDERS = {"fragment": ".pf_fragment", "index": ".pf_index", "filter": ".pf_filter"}


def indexed_pages(bundle: Path) -> int:
    """How many pages the index in `bundle` holds."""
    return sum(language["page_count"] for language in _entry(bundle)["languages"].values())


def referenced_files(bundle: Path) -> set[str]:
    """The bundle-relative paths of the content-named files the index in `bundle` refers to.

    Raises:
        One of `UNREADABLE`: the bundle is missing a file or holds a broken one.
    """
    files = set()
    for language in _entry(bundle)["languages"].values():
        meta_name = f"pagefind.{language['hash']}.pf_meta"
        files.add(meta_name)
        version, pages, chunks, filters, *_ = _read_meta(bundle / meta_name)
        files.update(f"fragment/{page[0]}.pf_fragment" for page in pages)
        files.update(f"index/{chunk[2]}.pf_index" for chunk in chunks)
        files.update(f"filter/{chunk[1]}.pf_filter" for chunk in filters)
    return files


def fragment_files(bundle: Path) -> set[str]:
    """The page fragments `bundle` holds, by bundle-relative path."""
    return {f"fragment/{path.name}" for path in (bundle / "fragment").glob("*.pf_fragment")}


def lengthened_names(referenced: Collection[str]) -> bool:
    """Whether Pagefind lengthened the name of a fragment an index refers to (`referenced_files`) past its
    7 hex digits: two of its pages' names collided."""
    return any(len(path.removesuffix(".pf_fragment").rpartition("_")[2]) > SHORT_HASH
               for path in referenced if path.startswith("fragment/"))


def keep_only_fragments(bundle: Path) -> None:
    """Remove the content-named files of `bundle` but its page fragments: the index is to be made again over them.

    A page's fragment is the same while its text is; the word index and the meta file change with any page.
    """
    for path in [*bundle.glob("pagefind.*.pf_meta"), *(bundle / "index").glob("*.pf_index"),
                 *(bundle / "filter").glob("*.pf_filter")]:
        path.unlink()


def prune(bundle: Path, live: Collection[str]) -> int:
    """Delete the content-named files of `bundle` its index (which refers to `live`) does not; returns how many."""
    stale = [path for path in bundle.glob("pagefind.*.pf_meta") if path.name not in live]
    for folder, suffix in HASHED_FOLDERS.items():
        stale.extend(path for path in (bundle / folder).glob(f"*{suffix}")
                     if f"{folder}/{path.name}" not in live)
    for path in stale:
        path.unlink()
    return len(stale)


def _entry(bundle: Path) -> dict:
    return json.loads((bundle / ENTRY).read_text(encoding="utf-8"))


def _read_meta(path: Path) -> list:
    data = gzip.decompress(path.read_bytes())
    if not data.startswith(SIGNATURE):
        raise ValueError(f"{path.name} is not a Pagefind file")
    meta, _ = _decode(data, len(SIGNATURE))
    if not isinstance(meta, list) or len(meta) < 4:
        raise ValueError(f"{path.name} does not hold a Pagefind index")
    return meta


def _decode(data: bytes, at: int) -> tuple[object, int]:
    """The CBOR item at `at` and where it ends: the definite-length subset Pagefind writes."""
    major, info = data[at] >> 5, data[at] & 0x1F
    at += 1
    if major == 7:
        return _simple(data, info, at)
    if info < 24:
        argument = info
    elif info <= 27:
        size = 1 << (info - 24)
        argument, at = int.from_bytes(data[at:at + size], "big"), at + size
    else:
        raise ValueError("indefinite-length CBOR is not Pagefind's")
    if major == 0:
        return argument, at
    if major == 1:
        return -1 - argument, at
    if major in (2, 3):
        raw = data[at:at + argument]
        return (raw if major == 2 else raw.decode("utf-8")), at + argument
    if major in (4, 5):
        items = []
        for _ in range(argument * (2 if major == 5 else 1)):
            item, at = _decode(data, at)
            items.append(item)
        return (items if major == 4 else dict(zip(items[::2], items[1::2]))), at
    raise ValueError(f"CBOR tags are not Pagefind's (major type {major})")


def _simple(data: bytes, info: int, at: int) -> tuple[object, int]:
    if info in (20, 21, 22, 23):
        return {20: False, 21: True, 22: None, 23: None}[info], at
    formats = {25: (">e", 2), 26: (">f", 4), 27: (">d", 8)}
    if info not in formats:
        raise ValueError(f"unexpected CBOR simple value {info}")
    form, size = formats[info]
    return struct.unpack(form, data[at:at + size])[0], at + size
