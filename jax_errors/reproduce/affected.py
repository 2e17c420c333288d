"""Which reproduction cases a change of jax's source touches: those whose raise site changed."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from sqlalchemy.orm import Session

from jax_errors.db import queries
from jax_errors.db.models import Snapshot
from jax_errors.reproduce.cases import Case


def affected_cases(session: Session, cases: Sequence[Case], old: Snapshot, new: Snapshot,
                   changed_error_ids: Iterable[str]) -> list[Case]:
    """The cases to run again after `old` -> `new`, by name.

    A case is about the error it expects (its `ERROR_ID`, else the one its latest run was
    attributed to). It is affected when that error was added, removed or reworded, when its raise
    site moved or changed (lines, function, raised class, template, guard), or when the case
    never ran. Changes elsewhere on the call path are not tracked.
    """
    changed_ids = set(changed_error_ids)
    latest = {row.case_name: row for row in queries.latest_reproductions(session)}
    subjects = {case.name: case.error_id or (latest[case.name].error_id if case.name in latest else None)
                for case in cases}
    wanted = {e for e in subjects.values() if e}
    before = queries.site_signatures(session, old, wanted)
    after = queries.site_signatures(session, new, wanted)
    affected = []
    for case in cases:
        error_id = subjects[case.name]
        if (case.name not in latest or error_id is None or error_id in changed_ids
                or before.get(error_id) != after.get(error_id)):
            affected.append(case)
    return sorted(affected, key=lambda c: c.name)
