"""The lookup index of a catalogue database: every error id of every snapshot, with its lineage."""

from __future__ import annotations

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from jax_errors.db.engine import consistent_reads
from jax_errors.db.history import catalogue_history, lineage_end, live_successor
from jax_errors.db.models import Occurrence, RaiseSite
from jax_errors.db.queries import chunks, observed_messages, worded_messages
from jax_errors.lookup.index import LookupIndex, make_entry
from jax_errors.template import Template, Wording, as_raised


def index_from_session(session: Session) -> LookupIndex:
    """The index of the catalogue a session reads: each error id at its newest occurrence.

    A retired id leads to the live id of its lineage (`history.live_successor`); one whose lineage was removed
    carries the id it ended as (`history.lineage_end`).
    """
    history = catalogue_history(session)
    snapshots = history.snapshots
    position_of = {s.id: i for i, s in enumerate(snapshots)}
    newest: dict[str, tuple[int, int, str]] = {}
    for error_id, site_id, path, snapshot_id in session.execute(
        select(Occurrence.error_id, Occurrence.site_id, Occurrence.path, Occurrence.snapshot_id)
        .where(Occurrence.error_id.is_not(None))
    ):
        position = position_of[snapshot_id]
        if error_id not in newest or position > newest[error_id][0]:
            newest[error_id] = (position, site_id, path)
    sites = {s.id: s for s in _sites(session, [v[1] for v in newest.values()])}
    wording = worded_messages(session)
    observed = observed_messages(session)
    entries = []
    for error_id, (position, site_id, path) in sorted(newest.items()):
        site, snapshot = sites[site_id], snapshots[position]
        template = as_raised(Template.from_json(site.template_parts), site.exc_class,
                             wording.get(snapshot.id, Wording()))
        entries.append(make_entry(error_id, site, template, path, snapshot.label, observed.get(error_id, ()),
                                  live_id=live_successor(error_id, history.errors),
                                  ends_as=lineage_end(error_id, history.errors)))
    return LookupIndex(entries, frozenset(observed))


def open_index(engine: Engine) -> LookupIndex:
    """The lookup index of the catalogue in `engine`, read as one state of it."""
    with Session(engine) as session:
        consistent_reads(session)
        return index_from_session(session)


def _sites(session: Session, ids: list[int]) -> list[RaiseSite]:
    found: list[RaiseSite] = []
    for chunk in chunks(ids):
        found.extend(session.scalars(select(RaiseSite).where(RaiseSite.id.in_(chunk))))
    return found
