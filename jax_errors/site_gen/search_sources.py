"""A folder Pagefind indexes: one `search.searchable_document` per searchable page of a shard of the site.

It is kept between builds, beside the site's manifest, so a build writes only the documents whose
searchable part changed and Pagefind re-reads small files. A listing of what the folder holds is
written last; a folder without one (new, or a sync cut short) is written whole.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Mapping
from pathlib import Path

from jax_errors.faults import checkpoint

SOURCES_DIR = ".jax-errors-search"
LISTING = ".listing.json"


def sync_sources(folder: Path, documents: Mapping[str, str], document_of: Callable[[str], str]) -> int:
    """Make `folder` hold exactly `documents` (site-relative page -> hash of its document).

    `document_of(page)` makes the document of a page whose file is missing or stale. Returns how
    many documents were written.
    """
    listed = listing_of(folder)
    if listed is None:
        shutil.rmtree(folder, ignore_errors=True)
        listed = {}
    folder.mkdir(parents=True, exist_ok=True)
    (folder / LISTING).unlink(missing_ok=True)  # until the listing is back, the folder is not trusted
    for page in sorted(listed.keys() - documents.keys()):
        (folder / page).unlink(missing_ok=True)
    written = 0
    for page, hashed in sorted(documents.items()):
        if listed.get(page) != hashed or not (folder / page).is_file():
            path = folder / page
            path.parent.mkdir(parents=True, exist_ok=True)
            checkpoint("search:source")
            path.write_text(document_of(page), encoding="utf-8")
            written += 1
    partial = folder / f"{LISTING}.partial"
    partial.write_text(json.dumps(dict(sorted(documents.items())), indent=0) + "\n", encoding="utf-8")
    partial.replace(folder / LISTING)
    return written


def listing_of(folder: Path) -> dict[str, str] | None:
    """What `folder` holds by its listing (page -> hash of its document); None for a folder written in part."""
    try:
        listing = json.loads((folder / LISTING).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return listing if isinstance(listing, dict) else None
