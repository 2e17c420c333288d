"""Which errors of a snapshot have a verified trigger: a JAX test, a harness case or a probed call seen raising them.

A test or case proves an error at the release it ran on. Its evidence carries forward along the
error's lineage (see `history.lineage`): after a move or a rewording the same code path still raises
it, so a test confirmed at jax-v0.11.0 still counts for the live id of jax 0.12.0.1.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from jax_errors.db.history import catalogue_history, lineage
from jax_errors.db.models import ConfirmedTrigger, ProbedCall, Reproduction, Snapshot


@dataclass(frozen=True)
class VerifiedErrors:
    """How many error ids of one snapshot have a verified trigger, and by what."""

    snapshot: Snapshot
    errors: int  # error ids the snapshot raises
    by_tests: frozenset[str]  # caught by a JAX test under this very id
    by_carried_tests: frozenset[str]  # caught by a JAX test only under an earlier id of its lineage
    by_cases: frozenset[str]  # reproduced by a harness case (under this id or an earlier one)
    by_probes: frozenset[str] = frozenset()  # raised by a probed call (under this id or an earlier one)

    @property
    def verified(self) -> frozenset[str]:
        return self.by_tests | self.by_carried_tests | self.by_cases | self.by_probes

    def summary(self) -> str:
        cases_only = self.by_cases - self.by_tests - self.by_carried_tests
        probes_only = self.by_probes - self.by_tests - self.by_carried_tests - self.by_cases
        return (f"{len(self.verified)} of {self.errors} errors of {self.snapshot.label} have a verified trigger: "
                f"{len(self.by_tests)} by JAX's tests, {len(self.by_carried_tests)} more by tests carried "
                f"through their lineage, {len(cases_only)} more by harness cases only, "
                f"{len(probes_only)} more by probed calls only")


def verified_errors(session: Session, snapshot: Snapshot) -> VerifiedErrors:
    """The error ids of `snapshot` that a confirmed JAX test or a reproduced case raised, lineage followed."""
    history = catalogue_history(session)
    ids = {error_id for error_id, error in history.errors.items() if any(s.id == snapshot.id for s in error.snapshots)}
    tested = set(session.scalars(select(ConfirmedTrigger.error_id).where(
        ConfirmedTrigger.status == "confirmed", ConfirmedTrigger.error_id.is_not(None)).distinct()))
    reproduced = set(session.scalars(select(Reproduction.error_id).where(
        Reproduction.status == "reproduced", Reproduction.error_id.is_not(None)).distinct()))
    probed = set(session.scalars(select(ProbedCall.error_id).distinct()))
    own, carried, cases, probes = set(), set(), set(), set()
    for error_id in ids:
        earlier = lineage(error_id, history.errors)
        if error_id in tested:
            own.add(error_id)
        elif tested.intersection(earlier):
            carried.add(error_id)
        if reproduced.intersection([error_id, *earlier]):
            cases.add(error_id)
        if probed.intersection([error_id, *earlier]):
            probes.add(error_id)
    return VerifiedErrors(snapshot, len(ids), frozenset(own), frozenset(carried), frozenset(cases), frozenset(probes))
