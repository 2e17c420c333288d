"""Read the catalogue: every query the CLI, the harness and the site generator need lives here."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Engine, func, or_, select
from sqlalchemy.orm import Session

from jax_errors.db.models import Occurrence, RaiseSite, Snapshot


@dataclass(frozen=True)
class SnapshotStats:
    label: str
    commit: str
    files: int
    sites: int
    messages: int
    complete: int
    parse_failures: int

    @property
    def complete_share(self) -> float:
        return self.complete / self.messages if self.messages else 0.0


@dataclass(frozen=True)
class LocatedSite:
    """A raise site where it stands in one snapshot."""

    error_id: str | None
    path: str
    site: RaiseSite
    snapshot: Snapshot


def find_snapshot(session: Session, label: str) -> Snapshot | None:
    """A crawled snapshot by tag, version, or (a prefix of) its commit."""
    return session.scalars(
        select(Snapshot).where(or_(
            Snapshot.tag == label, Snapshot.version == label,
            Snapshot.commit.startswith(label) if len(label) >= 7 else False,
        )).order_by(Snapshot.crawled_at.desc())
    ).first()


def snapshot_stats(engine: Engine) -> list[SnapshotStats]:
    """Counts per crawled snapshot, oldest commit first."""
    has_message = (RaiseSite.kind == "raise") & (RaiseSite.template != "")
    with Session(engine) as session:
        rows = session.execute(
            select(
                Snapshot.tag, Snapshot.version, Snapshot.commit, Snapshot.file_count, Snapshot.parse_failures,
                func.count(Occurrence.id),
                func.count(Occurrence.id).filter(has_message),
                func.count(Occurrence.id).filter(has_message & RaiseSite.template_complete),
            )
            .join(Occurrence, Occurrence.snapshot_id == Snapshot.id, isouter=True)
            .join(RaiseSite, RaiseSite.id == Occurrence.site_id, isouter=True)
            .group_by(Snapshot.id)
            .order_by(Snapshot.committed_at, Snapshot.id)
        ).all()
    return [
        SnapshotStats(tag or version or commit[:10], commit, files, sites, messages, complete, failures)
        for tag, version, commit, files, failures, sites, messages, complete in rows
    ]


def site_at(session: Session, snapshot: Snapshot, path: str, line: int) -> LocatedSite | None:
    """The raise site whose statement spans `path:line` in `snapshot` (innermost if nested)."""
    row = session.execute(
        select(Occurrence.error_id, Occurrence.path, RaiseSite)
        .join(RaiseSite, RaiseSite.id == Occurrence.site_id)
        .where(
            Occurrence.snapshot_id == snapshot.id, Occurrence.path == path,
            RaiseSite.lineno <= line, RaiseSite.end_lineno >= line,
        )
        .order_by(RaiseSite.lineno.desc())
    ).first()
    if row is None:
        return None
    error_id, found_path, site = row
    return LocatedSite(error_id, found_path, site, snapshot)


def sites_of_error(session: Session, error_id: str) -> list[LocatedSite]:
    """Every place an error id stands, newest snapshot first."""
    rows = session.execute(
        select(Occurrence.error_id, Occurrence.path, RaiseSite, Snapshot)
        .join(RaiseSite, RaiseSite.id == Occurrence.site_id)
        .join(Snapshot, Snapshot.id == Occurrence.snapshot_id)
        .where(Occurrence.error_id == error_id)
        .order_by(Snapshot.committed_at.desc(), Snapshot.id.desc())
    ).all()
    return [LocatedSite(eid, path, site, snap) for eid, path, site, snap in rows]


def snapshot_sites(session: Session, snapshot: Snapshot) -> list[LocatedSite]:
    """Every raise site of one snapshot, by path and line."""
    rows = session.execute(
        select(Occurrence.error_id, Occurrence.path, RaiseSite)
        .join(RaiseSite, RaiseSite.id == Occurrence.site_id)
        .where(Occurrence.snapshot_id == snapshot.id)
        .order_by(Occurrence.path, RaiseSite.lineno)
    ).all()
    return [LocatedSite(eid, path, site, snapshot) for eid, path, site in rows]
