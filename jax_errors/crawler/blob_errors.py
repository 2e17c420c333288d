"""What the history line keeps of a scanned blob (`BlobErrors`): each raise's base id and the words of its error.

The history crawl scans the blobs its commits bring; a snapshot crawl of a catalogue that has a history
line stores the same rows for the blobs it scans, so that a refresh parses each new blob once.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sqlalchemy import delete, insert, select
from sqlalchemy.orm import Session

from jax_errors.crawler.ids import base_ids
from jax_errors.crawler.raise_sites import EXTRACTOR_VERSION
from jax_errors.crawler.store import BlobScan
from jax_errors.db.commit_history import holds_history
from jax_errors.db.models import BlobErrors
from jax_errors.db.queries import chunks
from jax_errors.db.text import storable


def errors_of(scan: BlobScan) -> tuple[list[list], str | None]:
    """The blob's raises as `BlobErrors.errors` rows, or why it does not parse."""
    if scan.error is not None:
        return [], storable(scan.error.reason)
    return [
        [base, site.exc_class or site.exc_expr, site.qualname, site.template.skeleton, site.lineno]
        for site, base in zip(scan.sites, base_ids(scan.sites)) if base is not None
    ], None


def stored_errors(session: Session, shas: Iterable[str]) -> set[str]:
    """Of these blobs, those whose rows are stored, by this extractor."""
    stored = set()
    for chunk in chunks(sorted(shas)):
        stored.update(session.scalars(select(BlobErrors.sha).where(
            BlobErrors.sha.in_(chunk), BlobErrors.extractor_version == EXTRACTOR_VERSION)))
    return stored


def store_errors(session: Session, found: Sequence[tuple[str, list[list], str | None]]) -> None:
    """Store (sha, errors, parse error) rows, replacing what was stored of those blobs."""
    if not found:
        return
    session.execute(delete(BlobErrors).where(BlobErrors.sha.in_([sha for sha, _, _ in found])))
    session.execute(insert(BlobErrors), [
        {"sha": sha, "extractor_version": EXTRACTOR_VERSION, "errors": errors, "parse_error": error}
        for sha, errors, error in found])


def store_for_history(session: Session, scans: Sequence[BlobScan]) -> None:
    """Store the rows of blobs a snapshot crawl scanned, if the catalogue has a history line to use them and
    lacks them (the refresh that extended the line from these scans stored them)."""
    if not scans or not holds_history(session):
        return
    stored = stored_errors(session, {scan.sha for scan in scans})
    store_errors(session, [(scan.sha, *errors_of(scan)) for scan in scans if scan.sha not in stored])
