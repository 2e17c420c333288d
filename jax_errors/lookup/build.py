"""The lookup index of a catalogue database: every error id of every snapshot, with its lineage."""

from __future__ import annotations

import dataclasses
import hashlib
from collections import defaultdict
from collections.abc import Iterable, Mapping
from functools import partial
from typing import Protocol

from sqlalchemy import Engine, select
from sqlalchemy.orm import Session

from jax_errors.db.caller_forms import CallerForm, callee_raises, caller_forms, form_successors
from jax_errors.db.engine import consistent_reads
from jax_errors.db.history import CatalogueHistory, catalogue_history, lineage_end, live_successor
from jax_errors.db.models import Occurrence, RaiseSite
from jax_errors.db.name_history import name_history
from jax_errors.db.queries import chunks, observed_messages, worded_messages
from jax_errors.lookup.index import Entry, LookupIndex, make_entry
from jax_errors.template import Template, Wording, as_raised


def index_from_session(session: Session) -> LookupIndex:
    """The index of the catalogue a session reads: each error id at its newest occurrence, then the earlier
    wordings of ids whose words are made elsewhere (`earlier_wordings`).

    A retired id leads to the live id of its lineage (`history.live_successor`); one whose lineage was removed
    carries the id it ended as (`history.lineage_end`).
    """
    history = catalogue_history(session)
    snapshots = history.snapshots
    position_of = {s.id: i for i, s in enumerate(snapshots)}
    held: dict[str, dict[int, list[tuple[int, str]]]] = defaultdict(lambda: defaultdict(list))  # id: site: places
    for error_id, site_id, path, snapshot_id in session.execute(
        select(Occurrence.error_id, Occurrence.site_id, Occurrence.path, Occurrence.snapshot_id)
        .where(Occurrence.error_id.is_not(None))
    ):
        held[error_id][site_id].append((position_of[snapshot_id], path))
    newest = {error_id: max((*max(places), site_id) for site_id, places in by_site.items())
              for error_id, by_site in held.items()}  # (position, path, site id)
    sites = {s.id: s for s in _sites(session, [site_id for _, _, site_id in newest.values()])}
    elsewhere = {i for i, (_, _, site_id) in newest.items() if worded_elsewhere(sites[site_id])}
    sites.update((s.id, s) for s in _sites(session, sorted({s for i in elsewhere for s in held[i]} - set(sites))))
    wording = worded_messages(session)
    observed = observed_messages(session)
    entries, earlier = [], []
    for error_id, (position, path, site_id) in sorted(newest.items()):
        site, snapshot = sites[site_id], snapshots[position]
        own, words = Template.from_json(site.template_parts), wording.get(snapshot.id, Wording())
        template = as_raised(own, site.exc_class, words)
        live_id = live_successor(error_id, history.errors)
        entries.append(make_entry(error_id, site, template, path, snapshot.label, observed.get(error_id, ()),
                                  live_id=live_id, ends_as=lineage_end(error_id, history.errors),
                                  made_class=words.class_raised(site.exc_class, site.exc_expr, own)))
        if error_id in elsewhere:  # earlier wordings lead where the newest does: the live card, or this one
            raised = [(p, snapshots[p], sites[s], place) for s, places in held[error_id].items() for p, place in places]
            earlier += earlier_wordings(error_id, template, raised, wording, live_id or error_id)
    forms = caller_form_entries(session, history, wording, {e.error_id for e in entries + earlier})
    return LookupIndex(entries + earlier + forms, frozenset(observed), name_history(session).as_json())


def caller_form_entries(session: Session, history: CatalogueHistory, wording: Mapping[int, Wording],
                        taken: set[str]) -> list[Entry]:
    """The messages callers made with a helper's raise and stopped making, each leading to the card of the check the
    caller raises now (`caller_forms`), where that is not the helper's own: an entry each (`wording_entry`), with the
    newest snapshot that worded it so.

    Parameters:
        taken: the ids of the index's other entries.
    """
    snapshots = history.snapshots
    forms = caller_forms(session, snapshots)
    ends = form_successors(forms, len(snapshots) - 1, partial(callee_raises, session, snapshots))
    leads: list[tuple[CallerForm, str]] = []
    for form in forms:
        end = ends.get(form.key)
        card = live_successor(end.error_id, history.errors) if end is not None else None
        if card is not None and card != live_successor(form.error_id, history.errors):
            leads.append((form, card))
    sites = {s.id: s for s in _sites(session, sorted({form.site_id for form, _ in leads}))}
    found: list[Entry] = []
    for form, card in leads:
        site, words = sites[form.site_id], wording.get(form.snapshot_id, Wording())
        template = as_raised(form.template, site.exc_class, words)
        if wording_id(form.error_id, template) not in taken:
            entry = wording_entry(form.error_id, site, form.template, template, words, form.path,
                                  snapshots[form.last].label, card)
            taken.add(entry.error_id)
            found.append(entry)
    return found


class Placed(Protocol):
    """A snapshot as the index's makers hold it (a `Snapshot` row, or a card's `SnapshotInfo`)."""

    id: int

    @property
    def label(self) -> str: ...


def earlier_wordings(error_id: str, newest: Template, raised: Iterable[tuple[int, Placed, RaiseSite, str]],
                     wording: Mapping[int, Wording], lead_to: str) -> list[Entry]:
    """The messages an error was raised with before its newest, where other modules word them: a class's
    `__init__`, a helper or a maker reworded while the raise stood (`raise e(what)` of `prefix_errors`
    read `... with 11 children, but ...` up to jax 0.3.22, `... child keys ...` later).

    Each is an entry of its own, leading to `lead_to`, with the newest snapshot that worded it so; its id
    is made from the error's and the wording's (`wording_id`), and it names the error (`Entry.wording_of`).

    Parameters:
        raised: (rank of the snapshot in release order, snapshot, site, path) of each of the error's occurrences.
        wording: each snapshot's, by its id (`queries.worded_messages`).
    """
    found: list[Entry] = []
    seen = {newest.skeleton}
    for _rank, snapshot, site, path in sorted(raised, key=lambda r: (-r[0], r[3], r[2].id)):  # newest first
        own, words = Template.from_json(site.template_parts), wording.get(snapshot.id, Wording())
        template = as_raised(own, site.exc_class, words)
        if template.skeleton not in seen and template.has_words:
            seen.add(template.skeleton)
            found.append(wording_entry(error_id, site, own, template, words, path, snapshot.label, lead_to))
    return found


def wording_entry(error_id: str, site: RaiseSite, own: Template, template: Template, words: Wording, path: str,
                  until: str, lead_to: str) -> Entry:
    """An earlier wording of an error as an entry of its own: the message `template` (the raise's template `own` as
    raised, `as_raised` with the snapshot's `words`), leading to `lead_to`, with the newest snapshot that worded it
    so (`until`); its id made from the error's and the words (`wording_id`), and it names the error
    (`Entry.wording_of`)."""
    entry = make_entry(wording_id(error_id, template), site, template, path, until, (), live_id=lead_to,
                       made_class=words.class_raised(site.exc_class, site.exc_expr, own))
    return dataclasses.replace(entry, wording_of=error_id)


def wording_id(error_id: str, template: Template) -> str:
    """The id of an earlier wording of an error: 16 hex digits, as error ids are, from the error's and the words."""
    return hashlib.sha256(f"{error_id}\n{template.skeleton}".encode()).hexdigest()[:16]


def worded_elsewhere(site: RaiseSite) -> bool:
    """Whether a raise's words may come from another module: none of its own, or a call of unknown words."""
    own = Template.from_json(site.template_parts)
    return not own.has_words or any(part.kind == "opaque" for part in own.parts)


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
