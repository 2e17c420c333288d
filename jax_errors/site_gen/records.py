"""The JSON export: an OSV-shaped record per error, the index, and the bulk archive.

Records are validated against the checked-in JSON Schemas and written with `indent=2,
sort_keys=True`, so the same database always gives the same bytes.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import marshal
import re
from collections.abc import Callable
from datetime import datetime
from functools import cache
from pathlib import Path
from types import CodeType
from typing import Any

import fastjsonschema
import orjson

from jax_errors.cache import cache_folder, keep
from jax_errors.crawler.raise_sites import EXTRACTOR_VERSION
from jax_errors.db.commit_history import CommitHistory, LineCommit
from jax_errors.exceptions import RecordError
from jax_errors.site_gen.catalogue import Card, Catalogue, EarlierMessage, Location, Run, SnapshotInfo
from jax_errors.site_gen.circumstances import circumstances_of
from jax_errors.site_gen.links import GITHUB_REPO, PYPI_PROJECT, card_json_path, card_path, commit_url, github_url
from jax_errors.snapshots import RELEASE_TAG_PREFIX
from jax_errors.template import Template

SCHEMA_VERSION = "3.10.0"
SCHEMA_DIR = Path(__file__).with_name("schema")
ERROR_SCHEMA = "error.schema.json"
INDEX_SCHEMA = "index.schema.json"
EXTRACTED, REPRODUCED, CURATED = "extracted", "reproduced", "curated"
_ENTRY = re.compile(r"^def (\w+)", re.MULTILINE)  # the first function of generated code checks the whole record




def timestamp(value: datetime) -> str:
    """RFC 3339 in UTC, to the second (the database stores naive UTC)."""
    return value.replace(microsecond=0).isoformat() + "Z"


def dumps(data: Any, *, compact: bool = False) -> str:
    """A record's text: indented for people to read, or `compact` for what only scripts load (api/lookup.json)."""
    if compact:
        return json.dumps(data, separators=(",", ":"), sort_keys=True, ensure_ascii=False) + "\n"
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def fingerprint(data: Any) -> str:
    """A digest of a record's content, to tell whether it changed since the last build (never published)."""
    return hashlib.sha256(orjson.dumps(data, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS)).hexdigest()


@cache
def load_schema(name: str) -> dict[str, Any]:
    return json.loads((SCHEMA_DIR / name).read_text(encoding="utf-8"))


@cache
def validator(name: str) -> Callable[[Any], Any]:
    """A compiled validator for one schema: the build checks every record, so it must be fast.

    fastjsonschema validates the catalogue in well under a second (jsonschema takes ~20 s); the
    schemas keep to keywords both read alike, and the tests check records with jsonschema too.
    """
    entry, code = _validator_code(name)
    namespace: dict[str, Any] = {}
    exec(code, namespace)  # noqa: S102 - fastjsonschema's own code for a checked-in schema
    return namespace[entry]


def _validator_code(name: str) -> tuple[str, CodeType]:
    """The name of the checking function, and the compiled code fastjsonschema generates for a schema.

    The code (400 KB of Python for a card's schema) is kept compiled in the cache folder: compiling
    it took a tenth of a second per build. Its file is named by what makes it: fastjsonschema's
    version, the bytecode's and the schema.
    """
    text = (SCHEMA_DIR / name).read_bytes()
    made_by = hashlib.sha256(f"{fastjsonschema.VERSION}\0{importlib.util.MAGIC_NUMBER.hex()}\0".encode() + text)
    kept = cache_folder("validators") / f"{name.split('.')[0]}-{made_by.hexdigest()[:16]}"
    try:
        entry, code = marshal.loads(kept.read_bytes())
        if isinstance(entry, str) and isinstance(code, CodeType):
            return entry, code
    except (OSError, EOFError, ValueError, TypeError):
        pass  # not made yet, or cut short: made again
    source = fastjsonschema.compile_to_code(json.loads(text))  # a copy: it may add to the schema it reads
    made = (_ENTRY.search(source)[1], compile(source, f"<validator of {name}>", "exec"))
    keep(kept, marshal.dumps(made))
    return made


def validate(data: Any, schema: str, *, name: str = "record") -> None:
    """Check one record against a checked-in schema.

    Raises:
        RecordError: the record breaks the schema; the message names the failing path.
    """
    try:
        validator(schema)(data)
    except fastjsonschema.JsonSchemaException as error:
        raise RecordError(name, error.message) from error


# Records -------------------------------------------------------------------------------------

def card_record(card: Card) -> dict[str, Any]:
    """The OSV-shaped record of one error, with the catalogue's own fields and their provenance."""
    site = card.site
    knowledge = card.knowledge
    circumstances = circumstances_of(card)
    return {
        "schema_version": SCHEMA_VERSION,
        "id": card.id,
        "aliases": list(card.aliases),
        "modified": timestamp(card.modified),
        "published": timestamp(card.published),
        "summary": card.title,
        "details": knowledge.meaning if knowledge else None,
        "affected": [_affected(card)],
        "references": _references(card),
        "class": card.exc_class,
        "class_resolved": card.class_resolved,
        "raised": site.exc_expr,
        "module": card.module,
        "function": site.qualname,
        "template": card.template.text,
        "template_parts": _template_parts(card.template),
        "template_complete": card.template.complete,
        "template_has_words": card.template.has_words,
        "example_message": card.example_message,
        "template_forms": list(site.template_forms),
        "earlier_messages": [_earlier_message(message) for message in card.earlier_messages],
        "guard": {"kind": site.guard_kind, "condition": site.guard} if site.guard_kind else None,
        "cause": site.cause,
        "source": _source(card),
        "locations": [_location(loc) for loc in card.locations],
        "history": _history(card),
        "trigger": circumstances.to_json(),
        "raised_by": [caller.to_json() for caller in card.callers],
        "docs": [mention.to_json() for mention in card.docs],
        "tests": _tests(card),
        "knowledge": _knowledge(card),
        "example": _example(card),
        "reproduction": {"status": card.status, "runs": [_run(run) for run in card.runs]},
        "related": [
            {"id": r.error_id, "summary": r.title, "reason": r.reason, "similarity": r.similarity}
            for r in card.related
        ],
        "provenance": provenance(card, from_frames=circumstances.from_frames),
        "sources": _sources(card),
        "links": {"html": card_path(card.id), "json": card_json_path(card.id)},
    }


def provenance(card: Card, *, from_frames: bool | None = None) -> dict[str, str]:
    """Where each field of the card came from: the crawler, the harness, or a curated file.

    `from_frames`: whether the card's circumstances come from a reproduction's frames, when known already.
    """
    fields = dict.fromkeys(
        ("class", "template", "template_parts", "guard", "source", "locations", "affected", "related"),
        EXTRACTED,
    )
    if from_frames is None:
        from_frames = circumstances_of(card).from_frames
    fields["trigger"] = REPRODUCED if from_frames else EXTRACTED
    fields["raised_by"] = EXTRACTED
    fields["earlier_messages"] = EXTRACTED
    fields["docs"] = EXTRACTED
    fields["reproduction"] = REPRODUCED
    fields["tests"] = REPRODUCED
    if card.knowledge:
        fields.update(dict.fromkeys(("details", "knowledge"), CURATED))
    if card.case:
        fields["example"] = CURATED
    return fields


def _template_parts(template: Template) -> list[dict[str, str]]:
    return [{"kind": part.kind, "text": part.text} for part in template.parts]


def _earlier_message(message: EarlierMessage) -> dict[str, Any]:
    """A message no longer raised that leads to the card (`Card.earlier_messages`), as the card's section shows it."""
    made_by = message.raised_by
    return {"template": message.template.text,
            "template_parts": _template_parts(message.template),
            "until": message.until,
            "raised_by": {"id": made_by.error_id, "summary": made_by.title} if made_by else None}


def _affected(card: Card) -> dict[str, Any]:
    """OSV's `affected`: the releases that raise it, and the commit ranges (introduced, then fixed if retired).

    From the first-parent history when it was crawled: the exact commits, each time the error came
    and went ("0" where it was raised when the crawled history begins). Else the snapshots around it.
    """
    line = card.history.commits
    if line is not None:
        events: list[dict[str, str]] = []
        for run in line.presence:
            events.append({"introduced": "0" if run.first == line.began else run.first.commit})
            if run.ended_by is not None:
                events.append({"fixed": run.ended_by.commit})
    else:
        events = [{"introduced": card.history.first.ref}]
        if card.history.retired_since:
            events.append({"fixed": card.history.retired_since.ref})
    return {
        "package": {"ecosystem": "PyPI", "name": "jax", "purl": "pkg:pypi/jax"},
        "versions": card.versions,
        "ranges": [{"type": "GIT", "repo": GITHUB_REPO, "events": events}],
    }


def _commit_history(line: CommitHistory | None) -> dict[str, Any] | None:
    if line is None:
        return None

    def commit(c: LineCommit) -> dict[str, str]:
        return {"commit": c.commit, "date": timestamp(c.committed_at), "url": commit_url(c.commit)}

    return {
        "began": commit(line.began),
        "introduced": None if line.present_at_start else commit(line.presence[0].first),
        "removed": commit(line.removed_at) if line.removed_at else None,
        "presence": [{"from": commit(run.first), "until": commit(run.last) if run.last else None}
                     for run in line.presence],
        "releases": [tag.removeprefix(RELEASE_TAG_PREFIX) for tag in line.releases],
        "events": [
            {"kind": e.kind, **commit(e.at), "id": e.error_id, "previous_id": e.previous_id, "path": e.path,
             "previous_path": e.previous_path, "function": e.function, "previous_function": e.previous_function,
             "words": e.words, "previous_words": e.previous_words}
            for e in line.events
        ],
    }


def _tests(card: Card) -> dict[str, Any]:
    """The JAX tests confirmed to raise the error at its site, how many asserts point at it by pattern, and the
    probed calls that raised it."""
    return {
        "confirmed": [
            {"node_id": t.node_id, "path": t.path, "line": t.line, "commit": t.commit,
             "url": github_url(t.commit, t.path, t.line), "assert": t.assert_kind,
             "pattern_kind": t.pattern_kind, "pattern": t.pattern, "class": t.exc_class, "caught": t.count,
             "jax_version": t.jax_version, "caught_as": t.error_id}
            for t in card.tests
        ],
        "linked_statically": card.linked_asserts,
        "probed": [
            {"call": probe.call, "snippet": probe.snippet, "function": probe.function,
             "jax_version": probe.jax_version, "caught_as": probe.error_id, "class": probe.exc_class,
             "message": probe.message}
            for probe in card.probes
        ],
    }


def _history(card: Card) -> dict[str, Any]:
    history = card.history

    def links(items) -> list[dict[str, str]]:
        return [{"id": link.error_id, "summary": link.title} for link in items]

    return {
        "first": snapshot_record(history.first), "last": _optional_snapshot(history.last),
        "current": history.last is None, "retired_since": _optional_snapshot(history.retired_since),
        "versions": list(history.versions),
        "reworded_from": links(history.reworded_from), "reworded_to": links(history.reworded_to),
        "moved_from": links(history.moved_from), "moved_to": links(history.moved_to),
        "lives_on": links([history.lives_on])[0] if history.lives_on else None,
        "commits": _commit_history(history.commits),
    }


def _references(card: Card) -> list[dict[str, str]]:
    return [{"type": "WEB", "url": card.location.url}, {"type": "PACKAGE", "url": PYPI_PROJECT}]


def _source(card: Card) -> dict[str, Any]:
    site, loc = card.site, card.location
    return {
        "path": loc.path, "line": loc.lineno, "end_line": loc.end_lineno,
        "start_line": site.excerpt_start, "excerpt": site.excerpt, "url": loc.url, "ref": loc.snapshot.ref,
    }


def _location(loc: Location) -> dict[str, Any]:
    return {
        "from": snapshot_record(loc.snapshot), "until": _optional_snapshot(loc.until),
        "path": loc.path, "line": loc.lineno, "end_line": loc.end_lineno, "function": loc.qualname, "url": loc.url,
    }


def _knowledge(card: Card) -> dict[str, Any] | None:
    entry = card.knowledge
    if entry is None:
        return None
    return {
        "title": entry.title, "meaning": entry.meaning, "solutions": list(entry.solutions),
        "situations": list(entry.situations), "case": entry.case, "file": f"knowledge/{entry.path.name}",
    }


def _example(card: Card) -> dict[str, Any] | None:
    case = card.case
    if case is None:
        return None
    verified = [r.jax_version for r in card.runs if r.case_name == case.name and r.status == "reproduced"
                and r.fixed_ok]
    return {
        "case": case.name, "summary": case.summary, "before": case.trigger_source,
        "after": case.fixed_source, "file": f"cases/{case.path.name}", "verified_on": sorted(set(verified)),
    }


def _run(run: Run) -> dict[str, Any]:
    return {
        "case": run.case_name, "jax_version": run.jax_version, "status": run.status, "detail": run.detail,
        "observed_class": run.observed_class, "observed_message": run.observed_message,
        "error_id": run.error_id, "path": run.path, "line": run.lineno, "frames": list(run.frames),
        "fixed_ok": run.fixed_ok, "fixed_error": run.fixed_error, "ran_at": timestamp(run.ran_at),
    }


def _sources(card: Card) -> list[dict[str, Any]]:
    snap = card.location.snapshot
    sources = [{
        "kind": EXTRACTED, "by": f"jax-errors crawler (extractor {EXTRACTOR_VERSION})",
        "snapshot": snap.label, "commit": snap.commit, "date": timestamp(snap.date),
    }]
    if card.knowledge:
        sources.append({"kind": CURATED, "by": "knowledge file", "file": f"knowledge/{card.knowledge.path.name}"})
    if card.case:
        sources.append({"kind": CURATED, "by": "reproduction case", "file": f"cases/{card.case.path.name}"})
    for run in card.runs:
        sources.append({"kind": REPRODUCED, "by": f"jax-errors harness, case {run.case_name}",
                        "jax_version": run.jax_version, "date": timestamp(run.ran_at)})
    return sources


def snapshot_record(snap: SnapshotInfo) -> dict[str, Any]:
    return {
        "label": snap.label, "commit": snap.commit, "tag": snap.tag, "version": snap.release,
        "origin": snap.origin, "date": timestamp(snap.date),
    }


def _optional_snapshot(snap: SnapshotInfo | None) -> dict[str, Any] | None:
    return snapshot_record(snap) if snap else None


def index_record(catalogue: Catalogue) -> dict[str, Any]:
    """The list of every error, small enough to fetch whole: what a client searches first."""
    cards = catalogue.sorted_cards()
    newest = catalogue.newest
    return {
        "schema_version": SCHEMA_VERSION,
        "modified": timestamp(newest.date) if newest else None,
        "count": len(cards),
        "snapshots": [snapshot_record(s) for s in catalogue.snapshots],
        "errors": [
            {
                "id": c.id, "summary": c.title, "class": c.exc_class, "module": c.module,
                "path": c.location.path, "line": c.location.lineno, "status": c.status,
                "curated": c.knowledge is not None, "modified": timestamp(c.modified),
                "html": card_path(c.id), "json": card_json_path(c.id),
            }
            for c in cards
        ],
    }
