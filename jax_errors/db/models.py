"""SQLAlchemy 2.0 models of the catalogue. The schema itself is created only by Alembic migrations."""

from __future__ import annotations

from datetime import datetime
from operator import attrgetter
from typing import Any

from sqlalchemy import JSON, ForeignKey, Index, MetaData, String, Text, UniqueConstraint, and_, or_, select
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

from jax_errors.snapshots import release_of, snapshot_label

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

    # What a card shows of a raise site: equal readings in consecutive snapshots make one run of its history.
    READING = ("lineno", "end_lineno", "qualname", "exc_expr", "template", "guard_kind", "guard", "cause",
               "excerpt_start", "excerpt")

    @property
    def reading(self) -> tuple:
        return _read_reading(self)

    def __repr__(self) -> str:
        return f"<RaiseSite {self.base_id} {self.exc_class} line {self.lineno} in {self.qualname}>"


_read_reading = attrgetter(*RaiseSite.READING)


class Snapshot(Base):
    """One crawled state of JAX: a git commit, or an installed package pinned to its commit."""

    __tablename__ = "snapshots"

    id: Mapped[int] = mapped_column(primary_key=True)
    commit: Mapped[str] = mapped_column(String(40), unique=True)
    tag: Mapped[str | None] = mapped_column(Text, index=True)
    version: Mapped[str | None] = mapped_column(Text)
    origin: Mapped[str] = mapped_column(String(16))  # "git" or "installed"
    source: Mapped[str] = mapped_column(Text)
    committed_at: Mapped[datetime | None]
    crawled_at: Mapped[datetime]
    file_count: Mapped[int] = mapped_column(default=0)
    site_count: Mapped[int] = mapped_column(default=0)
    parse_failures: Mapped[int] = mapped_column(default=0)

    @property
    def label(self) -> str:
        return snapshot_label(self.tag, self.version, self.commit)

    @property
    def release(self) -> str | None:
        """The jax release this snapshot is, if it is one."""
        return release_of(self.version, self.tag)

    def __repr__(self) -> str:
        return f"<Snapshot {self.commit[:10]} tag={self.tag} files={self.file_count}>"


class FileSpan(Base):
    """Which blob a path held in every snapshot from `first_snapshot` to `last_snapshot` (None: to the newest).

    Snapshot ids are the order spans run along: a span holds every snapshot whose id is in it.
    A path whose blob does not change across crawls is one row, however many snapshots hold it.
    """

    __tablename__ = "file_spans"
    __table_args__ = (Index("ix_file_spans_last_first", "last_snapshot", "first_snapshot"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    path: Mapped[str] = mapped_column(Text)
    blob_sha: Mapped[str] = mapped_column(ForeignKey("blobs.sha"), index=True)
    first_snapshot: Mapped[int]
    last_snapshot: Mapped[int | None]

    def __repr__(self) -> str:
        return f"<FileSpan {self.path} {self.blob_sha[:10]} snapshots {self.first_snapshot}..{self.last_snapshot or ''}>"


class OccurrenceSpan(Base):
    """A raise site at a path, with its error id, in every snapshot from `first_snapshot` to `last_snapshot`."""

    __tablename__ = "occurrence_spans"
    __table_args__ = (Index("ix_occurrence_spans_last_first", "last_snapshot", "first_snapshot"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    site_id: Mapped[int] = mapped_column(ForeignKey("raise_sites.id", ondelete="CASCADE"), index=True)
    path: Mapped[str] = mapped_column(Text)
    error_id: Mapped[str | None] = mapped_column(String(16), index=True)
    first_snapshot: Mapped[int]
    last_snapshot: Mapped[int | None]

    def __repr__(self) -> str:
        return f"<OccurrenceSpan {self.error_id} {self.path} snapshots {self.first_snapshot}..{self.last_snapshot or ''}>"


def _in_each_snapshot(span: type[FileSpan] | type[OccurrenceSpan], *columns):
    """A span's rows once per snapshot they hold: what was stored per snapshot before spans."""
    holds = and_(span.first_snapshot <= Snapshot.id, or_(span.last_snapshot.is_(None), span.last_snapshot >= Snapshot.id))
    return select(Snapshot.id.label("snapshot_id"), span.id.label("span_id"), *columns).join(span, holds).subquery()


class SnapshotFile(Base):
    """Which blob a path held in one snapshot: file spans, read per snapshot (write `FileSpan` rows instead)."""

    __table__ = _in_each_snapshot(FileSpan, FileSpan.path, FileSpan.blob_sha)
    __mapper_args__ = {"primary_key": [__table__.c.snapshot_id, __table__.c.span_id]}

    def __repr__(self) -> str:
        return f"<SnapshotFile {self.path} {self.blob_sha[:10]}>"


class Occurrence(Base):
    """A raise site as it stands in one snapshot, with its stable error id: occurrence spans, read per snapshot."""

    __table__ = _in_each_snapshot(OccurrenceSpan, OccurrenceSpan.site_id, OccurrenceSpan.path, OccurrenceSpan.error_id)
    __mapper_args__ = {"primary_key": [__table__.c.snapshot_id, __table__.c.span_id]}

    site: Mapped[RaiseSite] = relationship(primaryjoin="foreign(Occurrence.site_id) == RaiseSite.id", viewonly=True)

    def __repr__(self) -> str:
        return f"<Occurrence {self.error_id} {self.path}:{self.site.lineno if self.site else '?'}>"


class BlobCalls(Base):
    """What each function of one blob, read at one path, refers to (`crawler/calls.py`): the call graph's input."""

    __tablename__ = "blob_calls"
    __table_args__ = (UniqueConstraint("blob_sha", "path"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    blob_sha: Mapped[str] = mapped_column(ForeignKey("blobs.sha", ondelete="CASCADE"))
    # Relative imports make the module, so the path, part of what a blob's names mean.
    path: Mapped[str] = mapped_column(Text)
    version: Mapped[str] = mapped_column(String(16))
    summary: Mapped[dict[str, Any]] = mapped_column(JSON)

    def __repr__(self) -> str:
        return f"<BlobCalls {self.blob_sha[:10]} {self.path} v{self.version}>"


class SnapshotCallGraph(Base):
    """That a snapshot's call graph was built, by which summary version, and what it found."""

    __tablename__ = "call_graphs"

    snapshot_id: Mapped[int] = mapped_column(ForeignKey("snapshots.id", ondelete="CASCADE"), primary_key=True)
    version: Mapped[str] = mapped_column(String(16))
    public_names: Mapped[int]
    functions: Mapped[int]  # raising functions that some public name reaches

    def __repr__(self) -> str:
        return f"<SnapshotCallGraph snapshot={self.snapshot_id} v{self.version} reached={self.functions}>"


class DocPassage(Base):
    """A passage of JAX's docs that speaks of errors (`crawler/docs.py`), stored once for all snapshots holding it."""

    __tablename__ = "doc_passages"

    id: Mapped[int] = mapped_column(primary_key=True)
    digest: Mapped[str] = mapped_column(String(40), unique=True)
    path: Mapped[str] = mapped_column(Text)
    heading: Mapped[str] = mapped_column(Text)
    url: Mapped[str] = mapped_column(Text)
    kind: Mapped[str] = mapped_column(String(16))  # prose, code, output or docstring
    text: Mapped[str] = mapped_column(Text)

    def __repr__(self) -> str:
        return f"<DocPassage {self.path}:{self.line} {self.kind}>"


class SnapshotDocs(Base):
    """That a snapshot's docs were read, by which reader version, and what they gave."""

    __tablename__ = "snapshot_docs"

    snapshot_id: Mapped[int] = mapped_column(ForeignKey("snapshots.id", ondelete="CASCADE"), primary_key=True)
    version: Mapped[str] = mapped_column(String(16))
    pages: Mapped[int]  # pages under docs/ read: none for a wheel, which ships no docs
    passages: Mapped[int]  # passages kept, the error classes' docstrings included
    # What they were read from (`docs.docs_digest`): a snapshot with the same is given these passages unread.
    source_digest: Mapped[str | None] = mapped_column(String(40), index=True)


class SnapshotDocPassage(Base):
    """Which stored passages one snapshot's docs hold, and where its files have them."""

    __tablename__ = "snapshot_doc_passages"

    snapshot_id: Mapped[int] = mapped_column(ForeignKey("snapshots.id", ondelete="CASCADE"), primary_key=True)
    passage_id: Mapped[int] = mapped_column(ForeignKey("doc_passages.id", ondelete="CASCADE"), primary_key=True,
                                            index=True)
    line: Mapped[int]  # where it starts in its file (of a notebook: the cell's number)
    position: Mapped[int]  # its place among its file's passages


class RaisedBy(Base):
    """The public `jax.*` names that reach one raising function of a snapshot, nearest first (the call graph)."""

    __tablename__ = "raised_by"
    __table_args__ = (Index("ix_raised_by_snapshot_path", "snapshot_id", "path"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    snapshot_id: Mapped[int] = mapped_column(ForeignKey("snapshots.id", ondelete="CASCADE"))
    path: Mapped[str] = mapped_column(Text)
    qualname: Mapped[str] = mapped_column(Text)
    # [name, calls from it, route of module:qualname from it to the raising function], nearest first
    entries: Mapped[list[Any]] = mapped_column(JSON)

    def __repr__(self) -> str:
        return f"<RaisedBy {self.path}:{self.qualname} from {len(self.entries)} public names>"


class PassedWords(Base):
    """One call of a snapshot that passes literal words to parameters of a function that raises (the call graph):
    `_check_tree_and_avals("body_fun output and input", ...)` in `while_loop`. The raise's message with those
    words in is the message that caller makes; when the caller later passes words to another check instead,
    that message has a successor there (`db.caller_forms`)."""

    __tablename__ = "passed_words"
    __table_args__ = (Index("ix_passed_words_snapshot_id", "snapshot_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    snapshot_id: Mapped[int] = mapped_column(ForeignKey("snapshots.id", ondelete="CASCADE"))
    path: Mapped[str] = mapped_column(Text)  # the function that raises
    qualname: Mapped[str] = mapped_column(Text)
    caller_path: Mapped[str] = mapped_column(Text)
    caller_qualname: Mapped[str] = mapped_column(Text)
    # parameter name -> the template parts of the words passed to it
    words: Mapped[dict[str, Any]] = mapped_column(JSON)

    def __repr__(self) -> str:
        return f"<PassedWords {self.caller_path}:{self.caller_qualname} -> {self.path}:{self.qualname}>"


class Reproduction(Base):
    """One run of a reproduction case on one jax version: what it raised, and where."""

    __tablename__ = "reproductions"
    __table_args__ = (UniqueConstraint("case_name", "jax_version"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    case_name: Mapped[str] = mapped_column(Text)
    jax_version: Mapped[str] = mapped_column(Text)
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


class RaisesAssert(Base):
    """One assert-that-raises of JAX's test suite at one commit (`assertRaisesRegex`, `pytest.raises`, ...)."""

    __tablename__ = "raises_asserts"
    __table_args__ = (
        UniqueConstraint("commit", "path", "lineno", "col"),
        Index("ix_raises_asserts_commit_path", "commit", "path"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    commit: Mapped[str] = mapped_column(String(40))
    path: Mapped[str] = mapped_column(Text)
    lineno: Mapped[int]
    end_lineno: Mapped[int]
    col: Mapped[int]
    class_name: Mapped[str | None] = mapped_column(Text)
    method: Mapped[str] = mapped_column(Text)
    assert_kind: Mapped[str] = mapped_column(String(40))
    form: Mapped[str] = mapped_column(String(8))  # "with" or "call"
    exc_expr: Mapped[str] = mapped_column(Text)
    exc_classes: Mapped[list[str]] = mapped_column(JSON)
    pattern_kind: Mapped[str | None] = mapped_column(String(16))  # "regex", "literal" or None
    pattern: Mapped[str | None] = mapped_column(Text)
    pattern_parts: Mapped[list[Any] | None] = mapped_column(JSON)
    pattern_complete: Mapped[bool]
    statements: Mapped[str] = mapped_column(Text)
    tests: Mapped[list[Any]] = mapped_column(JSON)  # [class or None, method] of the tests that run it
    miner_version: Mapped[str] = mapped_column(String(16))

    links: Mapped[list[StaticLink]] = relationship(
        back_populates="assert_", cascade="all, delete-orphan", order_by="StaticLink.rank"
    )

    def __repr__(self) -> str:
        return f"<RaisesAssert {self.path}:{self.lineno} {self.assert_kind} {self.pattern!r}>"


class StaticLink(Base):
    """A raise site whose template can produce a message an assert's pattern matches, with a score."""

    __tablename__ = "static_links"

    id: Mapped[int] = mapped_column(primary_key=True)
    assert_id: Mapped[int] = mapped_column(ForeignKey("raises_asserts.id", ondelete="CASCADE"), index=True)
    snapshot_id: Mapped[int] = mapped_column(ForeignKey("snapshots.id", ondelete="CASCADE"))
    site_id: Mapped[int] = mapped_column(ForeignKey("raise_sites.id", ondelete="CASCADE"))
    error_id: Mapped[str | None] = mapped_column(String(16), index=True)
    score: Mapped[float]
    rank: Mapped[int]

    assert_: Mapped[RaisesAssert] = relationship(back_populates="links")
    site: Mapped[RaiseSite] = relationship()

    def __repr__(self) -> str:
        return f"<StaticLink assert {self.assert_id} -> {self.error_id} score={self.score:.2f}>"


class TriggerRun(Base):
    """One run of one JAX test file (its asserting tests only) under the trigger plugin."""

    __tablename__ = "trigger_runs"
    __table_args__ = (UniqueConstraint("commit", "path"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    commit: Mapped[str] = mapped_column(String(40))
    path: Mapped[str] = mapped_column(Text)
    jax_version: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16), index=True)  # "ran", "no-tests", "error", "crashed", "timeout"
    exit_code: Mapped[int | None]
    selected: Mapped[int]
    passed: Mapped[int]
    failed: Mapped[int]
    skipped: Mapped[int]
    seconds: Mapped[float]
    detail: Mapped[str | None] = mapped_column(Text)
    ran_at: Mapped[datetime]

    triggers: Mapped[list[ConfirmedTrigger]] = relationship(
        back_populates="run", cascade="all, delete-orphan", order_by="ConfirmedTrigger.id"
    )

    def __repr__(self) -> str:
        return f"<TriggerRun {self.path} {self.status} passed={self.passed} failed={self.failed}>"


class ConfirmedTrigger(Base):
    """An exception a test's assert caught at run time, and the raise site it came from."""

    __tablename__ = "confirmed_triggers"

    id: Mapped[int] = mapped_column(primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("trigger_runs.id", ondelete="CASCADE"), index=True)
    assert_id: Mapped[int | None] = mapped_column(ForeignKey("raises_asserts.id", ondelete="SET NULL"), index=True)
    node_id: Mapped[str] = mapped_column(Text)
    test_line: Mapped[int | None]
    # "confirmed" (a raise site, the assert passed), "mismatch" (the assert failed), "no-site", "outside-jax"
    status: Mapped[str] = mapped_column(String(16), index=True)
    matched: Mapped[bool]
    exc_class: Mapped[str] = mapped_column(Text)
    message: Mapped[str] = mapped_column(Text)
    jax_path: Mapped[str | None] = mapped_column(Text)
    jax_line: Mapped[int | None]
    snapshot_id: Mapped[int | None] = mapped_column(ForeignKey("snapshots.id", ondelete="SET NULL"))
    site_id: Mapped[int | None] = mapped_column(ForeignKey("raise_sites.id", ondelete="SET NULL"))
    error_id: Mapped[str | None] = mapped_column(String(16), index=True)
    count: Mapped[int] = mapped_column(default=1)  # times caught (parameterized cases of one test)

    run: Mapped[TriggerRun] = relationship(back_populates="triggers")
    assert_: Mapped[RaisesAssert | None] = relationship()

    def __repr__(self) -> str:
        return f"<ConfirmedTrigger {self.node_id} {self.status} {self.error_id} at {self.jax_path}:{self.jax_line}>"


class ProbedCall(Base):
    """A call of a public jax function that a probe saw raise an error at its site: the shortest one per error.

    `triggers probe` calls every public function with generated arguments (`reproduce.probe_calls`);
    a call counts when its innermost traceback frame is the raise site's statement, the class is the
    site's and the message fits its template.
    """

    __tablename__ = "probed_calls"
    __table_args__ = (UniqueConstraint("jax_version", "error_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    jax_version: Mapped[str] = mapped_column(Text)
    snapshot_id: Mapped[int | None] = mapped_column(ForeignKey("snapshots.id", ondelete="SET NULL"), index=True)
    error_id: Mapped[str] = mapped_column(String(16), index=True)
    path: Mapped[str] = mapped_column(Text)
    lineno: Mapped[int]
    function: Mapped[str] = mapped_column(Text)  # the public function called (`jax.lax.reshape`)
    call: Mapped[str] = mapped_column(Text)  # the call as written
    snippet: Mapped[str] = mapped_column(Text)  # ... with the imports it needs: a program that runs as shown
    exc_class: Mapped[str] = mapped_column(Text)
    message: Mapped[str] = mapped_column(Text)
    frames: Mapped[list[dict[str, Any]]] = mapped_column(JSON)  # inside jax, innermost last

    def __repr__(self) -> str:
        return f"<ProbedCall {self.error_id} jax {self.jax_version}: {self.call}>"


# The history line: every commit of a branch's first-parent history, crawled by `crawl --history`.

class HistoryCommit(Base):
    """One commit of the first-parent history, at its place on that line (its first-parent depth)."""

    __tablename__ = "history_commits"

    position: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    commit: Mapped[str] = mapped_column(String(40), unique=True)
    committed_at: Mapped[datetime]
    # Release tags made from this commit: on it, or on a release branch that left the line here.
    releases: Mapped[list[str]] = mapped_column(JSON, default=list)

    def __repr__(self) -> str:
        return f"<HistoryCommit {self.position} {self.commit[:10]} {self.releases or ''}>"


class ErrorSpan(Base):
    """An error id raised at a path by every commit of the history from `first_position` to `last_position`.

    `last_position` None: to the newest commit crawled. A span is written when the error comes, goes
    or moves to another file, never for a commit that leaves it as it was.
    """

    __tablename__ = "error_spans"
    __table_args__ = (Index("ix_error_spans_last_first", "last_position", "first_position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    error_id: Mapped[str] = mapped_column(String(16), index=True)
    path: Mapped[str] = mapped_column(Text)
    first_position: Mapped[int]
    last_position: Mapped[int | None]

    def __repr__(self) -> str:
        return f"<ErrorSpan {self.error_id} {self.path} {self.first_position}..{self.last_position or ''}>"


class HistoryEvent(Base):
    """What one commit of the history did to an error: `added`, `removed`, `reworded`, `moved` (function or file)."""

    __tablename__ = "history_events"

    id: Mapped[int] = mapped_column(primary_key=True)
    position: Mapped[int] = mapped_column(index=True)
    kind: Mapped[str] = mapped_column(String(16))
    error_id: Mapped[str] = mapped_column(String(16), index=True)  # the id after the commit (removed: before)
    previous_id: Mapped[str | None] = mapped_column(String(16), index=True)  # reworded or moved from
    path: Mapped[str] = mapped_column(Text)
    previous_path: Mapped[str | None] = mapped_column(Text)
    function: Mapped[str] = mapped_column(Text)  # the raising function's qualified name
    previous_function: Mapped[str | None] = mapped_column(Text)
    template: Mapped[str] = mapped_column(Text)  # the message's skeleton after the commit (removed: before)
    previous_template: Mapped[str | None] = mapped_column(Text)

    def __repr__(self) -> str:
        return f"<HistoryEvent {self.position} {self.kind} {self.previous_id or ''}->{self.error_id}>"


class BlobErrors(Base):
    """What the history needs of one blob's raises, scanned once: per raise, its base id and identifying words."""

    __tablename__ = "blob_errors"

    sha: Mapped[str] = mapped_column(String(40), primary_key=True)
    extractor_version: Mapped[str] = mapped_column(String(16))
    # [base id, class or raised expression, function, message skeleton, line] per raise, in line order
    errors: Mapped[list[Any]] = mapped_column(JSON)
    parse_error: Mapped[str | None] = mapped_column(Text)

    def __repr__(self) -> str:
        return f"<BlobErrors {self.sha[:10]} {len(self.errors)} raises>"
