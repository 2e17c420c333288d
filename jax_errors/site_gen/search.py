"""The offline search index: Pagefind, run over the built site (its binary ships in `pagefind[bin]`)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from jax_errors.exceptions import SearchIndexError

BUNDLE_DIR = "pagefind"




def pagefind_executable() -> Path:
    try:
        import pagefind_bin
    except ImportError as error:
        raise SearchIndexError("pagefind is not installed: pip install 'pagefind[bin]'") from error
    try:
        return pagefind_bin.get_executable()
    except FileNotFoundError as error:
        raise SearchIndexError(f"the pagefind binary is missing: {error}") from error


def index_site(site: Path) -> int:
    """Index every page of `site` that marks a `data-pagefind-body`; returns how many pages it indexed.

    Raises:
        SearchIndexError: pagefind is not installed, or it failed.
    """
    command = [str(pagefind_executable()), "--site", str(site), "--quiet"]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        reason = (result.stderr or result.stdout).strip().splitlines()
        raise SearchIndexError(f"pagefind failed ({result.returncode}): {reason[-1] if reason else 'no output'}")
    return indexed_pages(site)


def indexed_pages(site: Path) -> int:
    """How many pages the search index of `site` holds."""
    entry = json.loads((site / BUNDLE_DIR / "pagefind-entry.json").read_text(encoding="utf-8"))
    return sum(language["page_count"] for language in entry["languages"].values())
