"""The messages a raise makes with the words each caller passes it, and where a caller's message went after.

`_check_tree_and_avals(what, ...)` raises `f"{what} must have identical types, got ..."`, and
`while_loop` called it with "body_fun output and input": users saw `body_fun output and input must
have identical types, got ...`. In jax 0.4.32 `while_loop` stopped calling it, and called
`_check_carry_type('while_loop body', ...)` instead. The helper still raises (for other callers),
so its lineage goes on, and the old message led to the helper's card: not to the check `while_loop`
raises now.

A *caller form* is a raise's template with one caller's words put in for its parameters (the
crawl's `PassedWords`). A form no caller makes any more has a successor when, in the very snapshot it
is gone from, a function that made it (by file and qualname; by qualname alone when it makes none in
that file any more and a function of that name elsewhere made none before) starts making another
form of the same class whose raise spells most of the words the old form's raise spells itself
(FORM_RESEMBLANCE), one of them uncommon; not when the raises of two errors are as alike. Forms are
followed from successor to successor to one still made.

A caller may instead start calling a check that words its message itself: jax 0.4.7's `scan` stopped
passing "scan carry output and input" to `_check_tree_and_avals` and called its own
`_check_scan_carry_type(f, ...)`, whose `TypeError`s say `Scanned function carry input and carry output
must have the same pytree structure, ...`. No words are passed, so no form is made. Where no form
follows, a raise of a function the caller refers to in that snapshot and did not before
(`callee_raises`, from the crawl's call summaries) follows on the same terms, and ends the chain.
"""

from __future__ import annotations

import json
import re
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

from sqlalchemy import Text, cast, select
from sqlalchemy.orm import Session

from jax_errors.crawler.entry_points import stored_summaries
from jax_errors.db.models import FileSpan, OccurrenceSpan, PassedWords, RaiseSite, Snapshot
from jax_errors.db.queries import chunks
from jax_errors.template import Part, Template, merge_into

# The share of the words a raise spells itself (case aside; not the caller's) that the raise of the form a caller makes
# instead must spell too, one of them uncommon. The while_loop pair above: `_check_carry_type`'s raise spells 3 of the
# 5 words of `{what} must have identical types, got ...` (`must`, `have`, `types`); jax 0.6.0's
# `_check_branch_outputs` 7 of the 15 of `{what1} must have same type structure as {what2}, but there are
# differences: ...` (0.47). A check of other things that a caller passes the same words to spells fewer: `{what}:
# unsupported types {}` 1 of 5; jax 0.1.48's `normal parameter shapes must be broadcast-compatible with shape argument`
# 4 of the 10 of `multivariate_normal requires a concrete tuple of integers as shape argument` (0.4). A caller's own
# words say nothing of the check: it passes its name to every check it makes.
FORM_RESEMBLANCE = 0.45
# Words any message may hold: an uncommon word the two raises both spell must be another (`types` above).
COMMON_WORDS = frozenset("""
    a an the and or nor of to in on at for by with from into as is are be been being was were it its this that these
    those than then so if when not no but got must have has had can cannot should would will may might do does did
    only also any all each one some more most such there their they them which what who here
""".split())
_WORD = re.compile(r"\w+")

Caller = tuple[str, str]  # (path, qualname) of a function passing words


@dataclass
class CallerForm:
    """A raise's message with a caller's words in, the snapshots (by rank in release order) that made it, and the
    callers that did, by rank. A message several callers make (or one caller moved to another function) is one form."""

    error_id: str
    site_id: int
    path: str  # of the raise, in the newest snapshot making the form
    exc_class: str  # the class's last name
    template: Template
    own: Template  # the raise's template, as it words the message itself
    snapshot_id: int  # of the newest snapshot making it
    callers: dict[int, set[Caller]] = field(default_factory=dict)  # rank -> the functions calling

    @property
    def first(self) -> int:
        return min(self.callers)

    @property
    def last(self) -> int:
        return max(self.callers)

    @property
    def key(self) -> tuple[str, str]:
        return self.error_id, self.template.skeleton

    @cached_property
    def own_words(self) -> frozenset[str]:
        """The words of the raise's own literal text, not those a caller passes."""
        return frozenset(_WORD.findall(self.own.skeleton.lower()))


def caller_forms(session: Session, snapshots: Sequence[Snapshot]) -> list[CallerForm]:
    """Every caller form of the snapshots (in release order), made from what the crawl stored."""
    rank = {s.id: i for i, s in enumerate(snapshots)}
    # The words as the text stored: most snapshots hold the words and raises of the last one; each text is read, and
    # put into each template, once.
    passed = session.execute(select(PassedWords.snapshot_id, PassedWords.path, PassedWords.qualname,
                                    PassedWords.caller_path, PassedWords.caller_qualname, cast(PassedWords.words, Text))
                             .order_by(PassedWords.id)).all()
    raises = _raises(session, sorted({(path, qualname) for _, path, qualname, *_ in passed}), sorted(rank))
    forms: dict[tuple[str, str], CallerForm] = {}
    made_of: dict[tuple[Template, str], tuple[Template, str] | None] = {}  # (template, words) -> form, its skeleton
    for snapshot_id, path, qualname, caller_path, caller, words in passed:
        if snapshot_id not in rank:
            continue
        at = rank[snapshot_id]
        for error_id, site_id, exc_class, template in raises.get((snapshot_id, path, qualname), ()):
            if (template, words) not in made_of:
                made = with_words(template, json.loads(words))
                made_of[(template, words)] = (made, made.skeleton) if made is not None else None
            if (found := made_of[(template, words)]) is None:
                continue
            made, skeleton = found
            form = forms.get((error_id, skeleton))
            if form is None:
                form = forms[(error_id, skeleton)] = CallerForm(error_id, site_id, path, exc_class.rpartition(".")[2],
                                                                made, template, snapshot_id)
            elif at > rank[form.snapshot_id]:
                form.site_id, form.path, form.template, form.own, form.snapshot_id = \
                    site_id, path, made, template, snapshot_id
            form.callers.setdefault(at, set()).add((caller_path, caller))
    return sorted(forms.values(), key=lambda f: f.key)


def with_words(template: Template, words: dict[str, list]) -> Template | None:
    """The template with the words passed to its parameters put in for the placeholders naming them (`{what}`); None
    when it names none of them, or has no words of its own (`raise ValueError(what)`: the caller's words alone)."""
    if not template.has_words:
        return None
    parts: list[Part] = []
    filled = False
    for part in template.parts:
        passed = words.get(part.text) if part.kind == "expr" else None
        if passed is None:
            merge_into(parts, (part,))
        else:
            merge_into(parts, tuple(Part(kind, text) for kind, text in passed))
            filled = True
    return Template(tuple(parts), template.forms) if filled else None


def form_successors(forms: Sequence[CallerForm], newest: int,
                    callees: Callable[[list[CallerForm]], Mapping[tuple[str, str], list[CallerForm]]] | None = None
                    ) -> dict[tuple[str, str], CallerForm]:
    """For each form its callers stopped making before the newest snapshot (rank `newest`), the form it became, still
    made; forms whose chain ends in one no longer made are left out. Where no form follows one, a raise of a function
    its callers started calling then (`callees` of the forms no form follows, by form key: `callee_raises`) may, and
    ends the chain: whether that raise lives on is its lineage's to say."""
    starting: dict[tuple[Caller, int], list[CallerForm]] = defaultdict(list)
    by_name: dict[tuple[str, int], list[CallerForm]] = defaultdict(list)
    active: dict[int, set[Caller]] = defaultdict(set)  # the functions passing words that make a form, by rank
    for form in forms:
        for at, callers in form.callers.items():
            active[at] |= callers
        for caller in sorted(form.callers[form.first]):
            starting[(caller, form.first)].append(form)
            by_name[(caller[1], form.first)].append(form)
    successor: dict[tuple[str, str], CallerForm] = {}
    unfollowed: list[CallerForm] = []
    for form in forms:
        if form.last >= newest:
            continue
        after = form.last + 1
        started: dict[tuple[str, str], CallerForm] = {}
        for caller in sorted(form.callers[form.last]):
            # A caller that makes no form in its file any more may have moved: a function of its qualname elsewhere
            # making none before stands for it.
            moved = [other for other in by_name[(caller[1], after)]
                     if any(c[1] == caller[1] and c not in active[form.last] for c in other.callers[after])]
            for other in starting[(caller, after)] if caller in active[after] else moved:
                started.setdefault(other.key, other)
        if (found := _successor(form, list(started.values()))) is not None:
            successor[form.key] = found
        else:
            unfollowed.append(form)
    raised = callees(unfollowed) if callees is not None and unfollowed else {}
    called = {form.key: found for form in unfollowed  # forms followed by a callee's raise
              if (found := _successor(form, list(raised.get(form.key, ())))) is not None}
    ends: dict[tuple[str, str], CallerForm] = {}
    for key, found in successor.items():
        while found.last < newest and found.key in successor:  # `last` grows along a chain: it ends
            found = successor[found.key]
        if found.last == newest:
            ends[key] = found
        elif found.key in called:
            ends[key] = called[found.key]
    return ends | called


def callee_raises(session: Session, snapshots: Sequence[Snapshot], forms: Sequence[CallerForm]
                  ) -> dict[tuple[str, str], list[CallerForm]]:
    """For each form its callers stopped making, the raises (as forms of their own words) of the functions those
    callers refer to in the next snapshot and did not in the form's last one, of the form's class: by form key.

    A reference is a dotted name (`jax._src.lax.control_flow.loops._check_scan_carry_type`) or a nested function of
    the caller's module (`@scan.<locals>.check`), taken where it is defined: names a package re-exports, and methods
    looked up through a class, are left out. A caller is looked for at its path and name in both snapshots (one that
    moved is not followed), and one without a call summary in either is left out.
    """
    ended = [form for form in forms if form.last + 1 < len(snapshots)]
    wanted = {(caller, form.last + step) for form in ended for caller in form.callers[form.last] for step in (0, 1)}
    refs = _references(session, [(path, qualname, snapshots[at].id) for (path, qualname), at in sorted(wanted)])
    started: dict[tuple[str, str], set[tuple[int, tuple[str, str]]]] = defaultdict(set)  # form key -> (rank, callee)
    for form in ended:
        for path, qualname in form.callers[form.last]:
            before = refs.get((path, qualname, snapshots[form.last].id))
            after = refs.get((path, qualname, snapshots[form.last + 1].id))
            if before is None or after is None:
                continue
            for ref in sorted(after - before):
                started[form.key] |= {(form.last + 1, callee) for callee in _spellings(ref, path)}
    callees = sorted({callee for pairs in started.values() for _, callee in pairs})
    ids = [s.id for s in snapshots]
    raises = _raises(session, callees, sorted(ids)) if callees else {}
    found: dict[tuple[str, str], list[CallerForm]] = {}
    by_key = {form.key: form for form in ended}
    for key, pairs in sorted(started.items()):
        form = by_key[key]
        for at, (path, qualname) in sorted(pairs):
            for error_id, site_id, exc_class, own in raises.get((ids[at], path, qualname), ()):
                if exc_class.rpartition(".")[2] == form.exc_class and own.has_words and error_id != form.error_id:
                    raised = CallerForm(error_id, site_id, path, form.exc_class, own, own, ids[at],
                                        {at: {(path, qualname)}})
                    found.setdefault(key, []).append(raised)
    return found


def _spellings(ref: str, caller_path: str) -> list[tuple[str, str]]:
    """The (path, qualname) a function reference may name: a nested function of the caller's module, or a dotted name
    split into a module (a file, or a package's `__init__.py`) and a name in it."""
    if ref.startswith("@"):
        return [(caller_path, ref[1:])]
    if not ref.startswith("jax."):
        return []
    parts = ref.split(".")
    return [(f"{'/'.join(parts[:i])}{suffix}", ".".join(parts[i:]))
            for i in range(len(parts) - 1, 0, -1) for suffix in (".py", "/__init__.py")]


def _references(session: Session, functions: list[tuple[str, str, int]]) -> dict[tuple[str, str, int], set[str]]:
    """What each function (path, qualname) refers to in a snapshot (by id), from the call summary of the blob its
    file held then; a function the summary does not hold is left out."""
    wanted_at: dict[str, dict[int, set[str]]] = defaultdict(lambda: defaultdict(set))  # path -> snapshot -> names
    for path, qualname, snapshot_id in functions:
        wanted_at[path][snapshot_id].add(qualname)
    held: dict[tuple[str, str], list[tuple[int, str]]] = defaultdict(list)  # (blob, path) -> (snapshot, qualname)
    for chunk in chunks(wanted_at):
        for path, blob, first, last in session.execute(
                select(FileSpan.path, FileSpan.blob_sha, FileSpan.first_snapshot, FileSpan.last_snapshot)
                .where(FileSpan.path.in_(chunk))):
            for snapshot_id, names in wanted_at[path].items():
                if first <= snapshot_id and (last is None or snapshot_id <= last):
                    held[(blob, path)] += [(snapshot_id, qualname) for qualname in names]
    found: dict[tuple[str, str, int], set[str]] = {}
    for (blob, path), summary in stored_summaries(session, held).items():
        defs = summary.get("defs", {})
        for snapshot_id, qualname in held[(blob, path)]:
            if (entry := defs.get(qualname)) is not None and entry[0] == "function":
                found[(path, qualname, snapshot_id)] = set(entry[3])
    return found


def resemblance(form: CallerForm, other: CallerForm) -> float:
    """The share of the words the form's raise spells itself that the other's raise spells too, when they share an
    uncommon one; else 0."""
    shared = form.own_words & other.own_words
    return len(shared) / max(1, len(form.own_words)) if shared - COMMON_WORDS else 0.0


def _successor(form: CallerForm, started: list[CallerForm]) -> CallerForm | None:
    """The form a caller of `form` started making when it stopped: of the same class, its raise the most alike; none
    when the raises of two errors are as alike."""
    scored = sorted(((resemblance(form, other), other) for other in started
                     if other.exc_class == form.exc_class and other.key != form.key), key=lambda item: (-item[0],
                                                                                                        item[1].key))
    if not scored or scored[0][0] < FORM_RESEMBLANCE:
        return None
    if len({other.error_id for score, other in scored if score == scored[0][0]}) > 1:
        return None
    return scored[0][1]


def _raises(session: Session, functions: list[tuple[str, str]], snapshot_ids: list[int]
            ) -> dict[tuple[int, str, str], list[tuple[str, int, str, Template]]]:
    """The raises of these functions (path, qualname), by snapshot: (error id, site id, class, template)."""
    wanted = set(functions)
    found: dict[tuple[int, str, str], list[tuple[str, int, str, Template]]] = defaultdict(list)
    templates: dict[int, Template] = {}
    for chunk in chunks(sorted({qualname for _, qualname in functions})):
        for path, qualname, error_id, site_id, exc_class, parts, first, last in session.execute(
            select(OccurrenceSpan.path, RaiseSite.qualname, OccurrenceSpan.error_id, RaiseSite.id, RaiseSite.exc_class,
                   RaiseSite.template_parts, OccurrenceSpan.first_snapshot, OccurrenceSpan.last_snapshot)
            .join(RaiseSite, RaiseSite.id == OccurrenceSpan.site_id)
            .where(RaiseSite.qualname.in_(chunk), OccurrenceSpan.error_id.is_not(None), RaiseSite.kind == "raise",
                   RaiseSite.exc_class.is_not(None))
            .order_by(RaiseSite.lineno, RaiseSite.id)
        ):
            if (path, qualname) not in wanted:
                continue
            if site_id not in templates:
                templates[site_id] = Template.from_json(parts)
            start = bisect_left(snapshot_ids, first)
            stop = len(snapshot_ids) if last is None else bisect_right(snapshot_ids, last)
            for snapshot_id in snapshot_ids[start:stop]:
                found[(snapshot_id, path, qualname)].append((error_id, site_id, exc_class, templates[site_id]))
    return found
