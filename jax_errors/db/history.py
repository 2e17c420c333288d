"""The life of each error across crawled snapshots: when it appeared, was reworded, or retired."""

from __future__ import annotations

import difflib
from collections import defaultdict
from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.orm import Session

from jax_errors.db.models import Occurrence, RaiseSite, Snapshot
from jax_errors.db.queries import chunks
from jax_errors.snapshots import version_key
from jax_errors.template import Template

# How alike two skeletons must be (difflib ratio) for a vanished error to count as reworded.
REWORD_SIMILARITY = 0.6


@dataclass(frozen=True)
class ErrorInfo:
    """What identifies an error, for matching rewordings: same class and function, alike words."""

    error_id: str
    exc: str
    qualname: str
    path: str
    skeleton: str
    template: str


@dataclass(frozen=True)
class SnapshotDiff:
    """Errors added, removed and reworded from snapshot `old` to snapshot `new`."""

    old: Snapshot
    new: Snapshot
    added: list[ErrorInfo]
    removed: list[ErrorInfo]
    reworded: list[tuple[ErrorInfo, ErrorInfo]]  # (old wording, new wording)

    def summary(self) -> str:
        return (f"{self.old.label} -> {self.new.label}: {len(self.added)} added, "
                f"{len(self.removed)} removed, {len(self.reworded)} reworded")


@dataclass
class ErrorHistory:
    """Where one error id appears, in snapshot order."""

    error_id: str
    snapshots: list[Snapshot] = field(default_factory=list)
    retired_since: Snapshot | None = None
    reworded_from: list[str] = field(default_factory=list)
    reworded_to: list[str] = field(default_factory=list)

    @property
    def first(self) -> Snapshot:
        return self.snapshots[0]

    @property
    def last(self) -> Snapshot:
        return self.snapshots[-1]

    @property
    def aliases(self) -> list[str]:
        return sorted(set(self.reworded_from) | set(self.reworded_to))


def ordered_snapshots(session: Session) -> list[Snapshot]:
    """Every snapshot, oldest first: by commit date, or by version for a package with no date."""
    snapshots = list(session.scalars(select(Snapshot)))
    dated = sorted((s for s in snapshots if s.committed_at), key=lambda s: (s.committed_at, s.commit))
    for undated in sorted((s for s in snapshots if not s.committed_at), key=lambda s: version_key(s.release or "")):
        later = next((i for i, s in enumerate(dated)
                      if s.release and version_key(s.release) > version_key(undated.release or "")), None)
        dated.insert(len(dated) if later is None else later, undated)
    return dated


def error_ids_by_snapshot(session: Session) -> dict[int, set[str]]:
    ids: dict[int, set[str]] = defaultdict(set)
    for snapshot_id, error_id in session.execute(
        select(Occurrence.snapshot_id, Occurrence.error_id).where(Occurrence.error_id.is_not(None))
    ):
        ids[snapshot_id].add(error_id)
    return ids


def error_infos(session: Session, snapshot: Snapshot, error_ids: set[str]) -> dict[str, ErrorInfo]:
    """Identifying details of some errors as they stand in one snapshot."""
    infos: dict[str, ErrorInfo] = {}
    for chunk in chunks(error_ids):
        rows = session.execute(
            select(Occurrence.error_id, Occurrence.path, RaiseSite.exc_class, RaiseSite.exc_expr,
                   RaiseSite.qualname, RaiseSite.template_parts, RaiseSite.template)
            .join(RaiseSite, RaiseSite.id == Occurrence.site_id)
            .where(Occurrence.snapshot_id == snapshot.id, Occurrence.error_id.in_(chunk))
        )
        for error_id, path, exc_class, exc_expr, qualname, parts, template in rows:
            skeleton = Template.from_json(parts).skeleton
            infos[error_id] = ErrorInfo(error_id, exc_class or exc_expr, qualname, path, skeleton, template)
    return infos


def match_rewordings(removed: list[ErrorInfo], added: list[ErrorInfo]) -> list[tuple[ErrorInfo, ErrorInfo]]:
    """Pair vanished errors with new ones of the same class and function whose words are alike."""
    by_owner: dict[tuple[str, str], list[ErrorInfo]] = defaultdict(list)
    for info in added:
        by_owner[(info.exc, info.qualname)].append(info)
    scored = []
    for old in removed:
        for new in by_owner.get((old.exc, old.qualname), []):
            ratio = difflib.SequenceMatcher(None, old.skeleton, new.skeleton).ratio()
            if ratio >= REWORD_SIMILARITY:
                scored.append((-ratio, old.error_id, new.error_id, old, new))
    pairs, used_old, used_new = [], set(), set()
    for _score, old_id, new_id, old, new in sorted(scored, key=lambda s: s[:3]):
        if old_id not in used_old and new_id not in used_new:
            pairs.append((old, new))
            used_old.add(old_id)
            used_new.add(new_id)
    return sorted(pairs, key=lambda p: p[0].error_id)


def diff_snapshots(session: Session, old: Snapshot, new: Snapshot,
                   ids: dict[int, set[str]] | None = None) -> SnapshotDiff:
    """Errors added, removed and reworded between two snapshots."""
    ids = ids if ids is not None else error_ids_by_snapshot(session)
    old_ids, new_ids = ids.get(old.id, set()), ids.get(new.id, set())
    removed = error_infos(session, old, old_ids - new_ids)
    added = error_infos(session, new, new_ids - old_ids)
    reworded = match_rewordings(list(removed.values()), list(added.values()))
    renamed_old = {o.error_id for o, _ in reworded}
    renamed_new = {n.error_id for _, n in reworded}
    return SnapshotDiff(
        old, new,
        added=sorted((i for i in added.values() if i.error_id not in renamed_new), key=lambda i: (i.path, i.error_id)),
        removed=sorted((i for i in removed.values() if i.error_id not in renamed_old), key=lambda i: (i.path, i.error_id)),
        reworded=reworded,
    )


@dataclass(frozen=True)
class CatalogueHistory:
    """Every snapshot in order, the diff of each consecutive pair, and each error's history."""

    snapshots: list[Snapshot]
    diffs: list[SnapshotDiff]  # diffs[i] is snapshots[i] -> snapshots[i + 1]
    errors: dict[str, ErrorHistory]


def catalogue_history(session: Session) -> CatalogueHistory:
    """The history of every error id across all snapshots, with rewordings linked as aliases."""
    snapshots = ordered_snapshots(session)
    ids = error_ids_by_snapshot(session)
    histories: dict[str, ErrorHistory] = {}
    for snapshot in snapshots:
        for error_id in sorted(ids.get(snapshot.id, ())):
            histories.setdefault(error_id, ErrorHistory(error_id)).snapshots.append(snapshot)
    diffs = [diff_snapshots(session, older, newer, ids) for older, newer in zip(snapshots, snapshots[1:])]
    for diff in diffs:
        for old, new in diff.reworded:
            histories[old.error_id].reworded_to.append(new.error_id)
            histories[new.error_id].reworded_from.append(old.error_id)
    position = {s.id: i for i, s in enumerate(snapshots)}
    for history in histories.values():
        after = position[history.last.id] + 1
        if after < len(snapshots):
            history.retired_since = snapshots[after]
    return CatalogueHistory(snapshots, diffs, histories)
