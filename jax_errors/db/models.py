"""SQLAlchemy 2.0 models of the catalogue. The schema itself is created only by Alembic migrations."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, MetaData, String, Text, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

# Stable constraint names, so migrations can alter them on SQLite (batch mode) and PostgreSQL alike.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class Blob(Base):
    """One scanned file content, keyed by its git blob id: never parsed twice."""

    __tablename__ = "blobs"

    sha: Mapped[str] = mapped_column(String(40), primary_key=True)
    size: Mapped[int]
    extractor_version: Mapped[str] = mapped_column(String(16))
    parse_error: Mapped[str | None] = mapped_column(Text)
    parse_error_line: Mapped[int | None]

    sites: Mapped[list[RaiseSite]] = relationship(
        back_populates="blob", cascade="all, delete-orphan", order_by="RaiseSite.lineno"
    )

    def __repr__(self) -> str:
        return f"<Blob {self.sha[:10]} sites={len(self.sites)} error={self.parse_error!r}>"


class RaiseSite(Base):
    """One `raise` statement inside one blob."""

    __tablename__ = "raise_sites"
    __table_args__ = (Index("ix_raise_sites_blob_line", "blob_sha", "lineno"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    blob_sha: Mapped[str] = mapped_column(ForeignKey("blobs.sha", ondelete="CASCADE"))
    lineno: Mapped[int]
    end_lineno: Mapped[int]
    qualname: Mapped[str] = mapped_column(Text)
    kind: Mapped[str] = mapped_column(String(16))
    exc_class: Mapped[str | None] = mapped_column(Text)
    exc_expr: Mapped[str] = mapped_column(Text)
    template: Mapped[str] = mapped_column(Text)
    template_parts: Mapped[list[Any]] = mapped_column(JSON)
    template_forms: Mapped[list[str]] = mapped_column(JSON)
    template_complete: Mapped[bool]
    guard_kind: Mapped[str | None] = mapped_column(String(16))
    guard: Mapped[str | None] = mapped_column(Text)
    cause: Mapped[str | None] = mapped_column(Text)
    excerpt_start: Mapped[int]
    excerpt: Mapped[str] = mapped_column(Text)
    # What identifies the error within its file; the snapshot-wide id is Occurrence.error_id.
    base_id: Mapped[str | None] = mapped_column(String(16), index=True)

    blob: Mapped[Blob] = relationship(back_populates="sites")

    def __repr__(self) -> str:
        return f"<RaiseSite {self.base_id} {self.exc_class} line {self.lineno} in {self.qualname}>"


class Snapshot(Base):
    """One crawled state of JAX: a git commit, or an installed package pinned to its commit."""

    __tablename__ = "snapshots"

    id: Mapped[int] = mapped_column(primary_key=True)
    commit: Mapped[str] = mapped_column(String(40), unique=True)
    tag: Mapped[str | None] = mapped_column(String(64), index=True)
    version: Mapped[str | None] = mapped_column(String(32))
    origin: Mapped[str] = mapped_column(String(16))  # "git" or "installed"
    source: Mapped[str] = mapped_column(Text)
    committed_at: Mapped[datetime | None]
    crawled_at: Mapped[datetime]
    file_count: Mapped[int] = mapped_column(default=0)
    site_count: Mapped[int] = mapped_column(default=0)
    parse_failures: Mapped[int] = mapped_column(default=0)

    files: Mapped[list[SnapshotFile]] = relationship(
        back_populates="snapshot", cascade="all, delete-orphan", order_by="SnapshotFile.path"
    )
    occurrences: Mapped[list[Occurrence]] = relationship(
        back_populates="snapshot", cascade="all, delete-orphan"
    )

    def __repr__(self) -> str:
        return f"<Snapshot {self.commit[:10]} tag={self.tag} files={self.file_count}>"


class SnapshotFile(Base):
    """Which blob a path held in a snapshot."""

    __tablename__ = "snapshot_files"
    __table_args__ = (UniqueConstraint("snapshot_id", "path"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    snapshot_id: Mapped[int] = mapped_column(ForeignKey("snapshots.id", ondelete="CASCADE"))
    path: Mapped[str] = mapped_column(Text)
    blob_sha: Mapped[str] = mapped_column(ForeignKey("blobs.sha"), index=True)

    snapshot: Mapped[Snapshot] = relationship(back_populates="files")
    blob: Mapped[Blob] = relationship()

    def __repr__(self) -> str:
        return f"<SnapshotFile {self.path} {self.blob_sha[:10]}>"


class Occurrence(Base):
    """A raise site as it stands in one snapshot, with its stable error id."""

    __tablename__ = "occurrences"
    __table_args__ = (Index("ix_occurrences_snapshot_path", "snapshot_id", "path"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    snapshot_id: Mapped[int] = mapped_column(ForeignKey("snapshots.id", ondelete="CASCADE"))
    site_id: Mapped[int] = mapped_column(ForeignKey("raise_sites.id", ondelete="CASCADE"), index=True)
    path: Mapped[str] = mapped_column(Text)
    error_id: Mapped[str | None] = mapped_column(String(16), index=True)

    snapshot: Mapped[Snapshot] = relationship(back_populates="occurrences")
    site: Mapped[RaiseSite] = relationship()

    def __repr__(self) -> str:
        return f"<Occurrence {self.error_id} {self.path}:{self.site.lineno if self.site else '?'}>"


class Reproduction(Base):
    """One run of a reproduction case on one jax version: what it raised, and where."""

    __tablename__ = "reproductions"
    __table_args__ = (UniqueConstraint("case_name", "jax_version"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    case_name: Mapped[str] = mapped_column(String(128))
    jax_version: Mapped[str] = mapped_column(String(32))
    # The snapshot of the installed jax whose raise sites the error was attributed against.
    snapshot_id: Mapped[int | None] = mapped_column(ForeignKey("snapshots.id", ondelete="SET NULL"), index=True)
    status: Mapped[str] = mapped_column(String(16), index=True)
    detail: Mapped[str | None] = mapped_column(Text)
    expected: Mapped[str] = mapped_column(Text)
    expected_error_id: Mapped[str | None] = mapped_column(String(16))
    observed_class: Mapped[str | None] = mapped_column(Text)
    observed_message: Mapped[str | None] = mapped_column(Text)
    frames: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    error_id: Mapped[str | None] = mapped_column(String(16), index=True)
    path: Mapped[str | None] = mapped_column(Text)
    lineno: Mapped[int | None]
    fixed_ok: Mapped[bool]
    fixed_error: Mapped[str | None] = mapped_column(Text)
    duration: Mapped[float]
    ran_at: Mapped[datetime]

    snapshot: Mapped[Snapshot | None] = relationship()

    def __repr__(self) -> str:
        where = f" {self.path}:{self.lineno}" if self.path else ""
        return f"<Reproduction {self.case_name} jax {self.jax_version} {self.status}{where}>"
