"""The life of each error across crawled snapshots: when it appeared, moved, was reworded, or retired.

An error's id holds its class, function and words (see `crawler.ids`), so a raise whose function
was renamed, or whose words changed, gets a new id. Between consecutive snapshots, the ids that
vanished are paired with those that appeared: that lineage links the old id to the new one.

- *Moved*: the same class (by name: `jax.core.UnexpectedTracerError` is `jax.errors.UnexpectedTracerError`)
  and the same words (skeletons at least MOVE_SIMILARITY alike), in another function or file:
  `register_dataclass` -> `_register_dataclass`.
- *Reworded*: the same class, with alike words, in the same function (REWORD_SIMILARITY) or the
  same file (FILE_REWORD_SIMILARITY): `float0.Got` -> `float0. Got`, or an added sentence.
- *Rewritten*: the only error of a class a function lost and the only one it gained (or n alike
  ones lost and n alike ones gained: one check repeated in n branches); or the only
  error it lost and the only one it gained, of another class, when their words are alike
  (REWRITE_SIMILARITY) or one has none (`Exception("The numpy.ndarray conversion ...")` ->
  `TracerArrayConversionError(self)`, whose class builds the message).
- *Re-classed*: checks a function gave another class, all at once (each paired with the one it reads most
  like) or keeping their words (`reclassed`): `ArrayImpl.__dlpack_device__`'s four `ValueError`s became
  `BufferError`s.
- *Handed over*: a retired check linked to the twin born beside it (`hand_over`, over the whole history).

A file whose functions went to another file (`jax/core.py` -> `jax/_src/core.py`: at least
RENAMED_FILE_FUNCTIONS functions lost errors there and gained errors of the same class in the other
file) counts as that file: an error of few words (`{}`) follows its function there. So does one
function that went alone, as an error it kept shows (`flatten_axis_resources`, from `pjit.py` to
`api_util.py` in jax 0.9.2, kept one error's id and rewrote the other's).

Each vanished id is linked to one new id at most, best match first.
"""

from __future__ import annotations

import bisect
import builtins
import difflib
import functools
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Container, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import NamedTuple

from rapidfuzz import fuzz, process
from sqlalchemy import select
from sqlalchemy.orm import Session

from jax_errors.crawler.deprecation_tables import is_removed_name
from jax_errors.db.models import HistoryEvent, Occurrence, RaiseSite, Snapshot
from jax_errors.db.queries import chunks
from jax_errors.snapshots import in_release_order
from jax_errors.template import Template, spells_words

# How alike two skeletons must be (difflib ratio) for a vanished error to count as reworded: in the
# same function, or in another function of the same file; or as moved, anywhere.
REWORD_SIMILARITY = 0.6
FILE_REWORD_SIMILARITY = 0.75
# The sole error of a class a file lost and the sole one it gained: one check rewritten, if this alike.
REWRITE_SIMILARITY = 0.45
MOVE_SIMILARITY = 0.9
# A check handed over to a twin born while it was raised (`hand_over`): skeletons at least this alike.
HANDOVER_SIMILARITY = 0.88
# ... worded otherwise than before, as one of a rewrite of at least this many checks of one file.
HANDOVER_FAMILY = 3
# One skeleton found in the other to this share (a sentence added or dropped) also counts as alike.
CONTAINED_SHARE = 0.95
# ... and, in another function of the file or as another class, to this share of the shorter one's words: characters
# alone let `get not supported yet` be found in `split over partial blocks not supported yet: ...`.
CONTAINED_WORDS = 0.8
# A skeleton shorter than this (`{}`, `bad axis {}`) says too little to follow it to another function.
MIN_MOVED_SKELETON = 16
# Functions that must have gone from one file to another for the file to count as renamed.
RENAMED_FILE_FUNCTIONS = 3


@dataclass(frozen=True)
class ErrorInfo:
    """What identifies an error, for matching rewordings: same class and function, alike words."""

    error_id: str
    exc: str
    qualname: str
    path: str
    skeleton: str
    template: str

    @property
    def class_name(self) -> str:
        """The class without its module: JAX moved classes between modules (`jax.core.UnexpectedTracerError`
        became `jax.errors.UnexpectedTracerError`), and a class that moved is the same class."""
        return self.exc.rpartition(".")[2]


@dataclass(frozen=True)
class SnapshotDiff:
    """Errors added, removed and reworded from snapshot `old` to snapshot `new`."""

    old: Snapshot
    new: Snapshot
    added: list[ErrorInfo]
    removed: list[ErrorInfo]
    reworded: list[tuple[ErrorInfo, ErrorInfo]]  # (old wording, new wording)
    moved: list[tuple[ErrorInfo, ErrorInfo]] = field(default_factory=list)  # (old place, new place)

    def summary(self) -> str:
        return (f"{self.old.label} -> {self.new.label}: {len(self.added)} added, "
                f"{len(self.removed)} removed, {len(self.moved)} moved, {len(self.reworded)} reworded")


@dataclass
class ErrorHistory:
    """Where one error id appears, in snapshot order."""

    error_id: str
    snapshots: list[Snapshot] = field(default_factory=list)
    retired_since: Snapshot | None = None
    reworded_from: list[str] = field(default_factory=list)
    reworded_to: list[str] = field(default_factory=list)
    moved_from: list[str] = field(default_factory=list)
    moved_to: list[str] = field(default_factory=list)

    @property
    def first(self) -> Snapshot:
        return self.snapshots[0]

    @property
    def last(self) -> Snapshot:
        return self.snapshots[-1]

    @property
    def aliases(self) -> list[str]:
        return sorted(set(self.reworded_from) | set(self.reworded_to) | set(self.moved_from) | set(self.moved_to))

    @property
    def predecessors(self) -> list[str]:
        """The ids this error had just before: the ones it was reworded or moved from."""
        return sorted(set(self.reworded_from) | set(self.moved_from))


def lineage(error_id: str, errors: dict[str, ErrorHistory]) -> list[str]:
    """Every earlier id of an error, nearest first, following rewordings and moves back."""
    found, frontier = [], [error_id]
    while frontier:
        following = []
        for current in frontier:
            for earlier in errors[current].predecessors if current in errors else ():
                if earlier != error_id and earlier not in found:
                    found.append(earlier)
                    following.append(earlier)
        frontier = following
    return found


def live_successor(error_id: str, errors: dict[str, ErrorHistory]) -> str | None:
    """The id a retired error lives on as, following rewordings and moves forward; None once it was removed.

    A live error is its own successor. Of several successors, the nearest live one, then the smallest id.
    """
    for ids in _onward(error_id, errors):
        live = sorted(i for i in ids if i in errors and errors[i].retired_since is None)
        if live:
            return live[0]
    return None


def lineage_end(error_id: str, errors: dict[str, ErrorHistory]) -> str | None:
    """The id a removed error went on as before its lineage was removed (reworded or moved, then gone), when
    another than itself: of several, the nearest, then the smallest id. None while its lineage lives on
    (`live_successor` gives an id).

    Its last wording may read like an error raised today that no link reaches: a check dropped for a
    like one elsewhere in its file (`Array slice indices must have static start/stop/step ...`,
    reworded once, then moved from `lax_numpy.py` to `indexing.py`, then dropped there for a like
    check in the same file).
    """
    end = None
    for ids in _onward(error_id, errors):
        if any(i in errors and errors[i].retired_since is None for i in ids):
            return None
        ends = sorted(i for i in ids if i != error_id and not _successors(errors.get(i)))
        end = end or (ends[0] if ends else None)
    return end


def _onward(error_id: str, errors: dict[str, ErrorHistory]) -> Iterator[list[str]]:
    """The ids an error went on as, following rewordings and moves forward: itself, then each step's ids."""
    seen, frontier = {error_id}, [error_id]
    while frontier:
        yield frontier
        following = []
        for current in frontier:
            for later in _successors(errors.get(current)):
                if later not in seen:
                    seen.add(later)
                    following.append(later)
        frontier = following


def _successors(history: ErrorHistory | None) -> list[str]:
    return sorted(set(history.reworded_to) | set(history.moved_to)) if history else []


def ordered_snapshots(session: Session) -> list[Snapshot]:
    """Every snapshot, oldest first (`snapshots.in_release_order`): releases by version, so that a patch to
    an older line (0.8.3, made after 0.9.0) is compared with the release before it, not with 0.9.0;
    other commits by date, after the last release made before them. Alike ones by date, then commit."""
    snapshots = sorted(session.scalars(select(Snapshot)),
                       key=lambda s: (s.committed_at is None, s.committed_at or datetime.min, s.commit))
    return in_release_order(snapshots, lambda s: s.release, lambda s: s.committed_at)


def error_paths_by_snapshot(session: Session) -> dict[int, dict[str, str]]:
    """Per snapshot id, the error ids it raises, each with the path it stands at (the first by name, if several)."""
    paths: dict[int, dict[str, str]] = defaultdict(dict)
    for snapshot_id, error_id, path in session.execute(
        select(Occurrence.snapshot_id, Occurrence.error_id, Occurrence.path).where(Occurrence.error_id.is_not(None))
    ):
        held = paths[snapshot_id]
        if error_id not in held or path < held[error_id]:
            held[error_id] = path
    return paths


def raising_functions(session: Session, snapshot: Snapshot) -> set[tuple[str, str]]:
    """The functions that raise in one snapshot: (path, qualname)."""
    return set(session.execute(
        select(Occurrence.path, RaiseSite.qualname).distinct().join(RaiseSite, RaiseSite.id == Occurrence.site_id)
        .where(Occurrence.snapshot_id == snapshot.id)).tuples())


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


@dataclass(frozen=True)
class Moves:
    """Where the places of vanished errors went: files renamed (`renamed_files`), and functions that went to
    another file alone ({(old path, qualname): new path}, `moved_functions`)."""

    files: dict[str, str] = field(default_factory=dict)
    functions: dict[tuple[str, str], str] = field(default_factory=dict)

    def path_of(self, info: ErrorInfo) -> str:
        """The file where the function of a vanished error stands now."""
        return self.functions.get((info.path, info.qualname)) or self.files.get(info.path, info.path)


def moved_functions(relocated: Iterable[tuple[ErrorInfo, ErrorInfo]]) -> dict[tuple[str, str], str]:
    """Functions that went to another file, as the errors they kept (one id, before and after) show."""
    found: dict[tuple[str, str], str] = {}
    for old, new in sorted(relocated, key=lambda pair: (pair[1].path, pair[1].error_id)):
        if old.qualname == new.qualname and old.path != new.path:
            found.setdefault((old.path, old.qualname), new.path)  # the first path by name, if they went to several
    return found


def relocated(session: Session, old: Snapshot, new: Snapshot, old_paths: dict[str, str], new_paths: dict[str, str]
              ) -> list[tuple[ErrorInfo, ErrorInfo]]:
    """The errors both snapshots raise, that `new` raises at another path than `old`: (old, new)."""
    moved = {i for i, path in old_paths.items() if new_paths.get(i, path) != path}
    if not moved:
        return []
    before, after = error_infos(session, old, moved), error_infos(session, new, moved)
    return [(before[i], after[i]) for i in sorted(moved) if i in before and i in after]


def match_lineage(removed: list[ErrorInfo], added: list[ErrorInfo],
                  relocations: Iterable[tuple[ErrorInfo, ErrorInfo]] = (),
                  raising_after: Callable[[], Container[tuple[str, str]]] | None = None,
                  ) -> tuple[list[tuple[ErrorInfo, ErrorInfo]], list[tuple[ErrorInfo, ErrorInfo]]]:
    """Pair vanished errors with new ones: (moved, reworded), each pair (old, new), each id in one pair at most.

    `relocations` holds the errors both sides raise at another path (old, new; `relocated`): the functions
    that moved. `raising_after` gives the functions that raise on the newer side, (path, qualname), of the
    files that lost errors at least (`rewritten`); not given, those `added` raises in.
    """
    # A function that still raises at its old path (a wrapper left behind) did not go.
    staying = {(info.path, info.qualname) for info in added}
    raising_after = raising_after or (lambda: staying)
    renamed = Moves(renamed_files(removed, added),
                    {place: path for place, path in moved_functions(relocations).items() if place not in staying})
    by_class: dict[str, list[ErrorInfo]] = defaultdict(list)
    for info in added:
        by_class[info.class_name].append(info)
    scored = []
    for old in removed:
        for new in by_class.get(old.class_name, []):
            kind = _link(old, new, renamed)
            if kind is None:
                continue
            threshold = {"moved": MOVE_SIMILARITY, "function": REWORD_SIMILARITY}.get(kind, FILE_REWORD_SIMILARITY)
            held = {"moved": None, "function": 0.0}.get(kind, CONTAINED_WORDS)
            ratio = _alike(old.skeleton, new.skeleton, threshold, contained=held)
            if ratio is not None:
                # Same function first, then same file, then the most alike words.
                rank = (old.qualname != new.qualname, old.path != new.path, -ratio)
                scored.append((rank, old.error_id, new.error_id, kind, old, new))
    moved, reworded, used_old, used_new = [], [], set(), set()
    for _rank, old_id, new_id, kind, old, new in sorted(scored, key=lambda s: s[:3]):
        if old_id in used_old or new_id in used_new:
            continue
        used_old.add(old_id)
        used_new.add(new_id)
        same_words = " ".join(old.skeleton.split()) == " ".join(new.skeleton.split())
        (moved if same_words or kind == "moved" and old.qualname != new.qualname else reworded).append((old, new))
    unlinked_old = [o for o in removed if o.error_id not in used_old]
    unlinked_new = [n for n in added if n.error_id not in used_new]
    reworded += (again := rewritten(unlinked_old, unlinked_new, renamed, raising_after))
    linked = {o.error_id for o, _ in again} | {n.error_id for _, n in again}
    reworded += reclassed([o for o in unlinked_old if o.error_id not in linked],
                          [n for n in unlinked_new if n.error_id not in linked], renamed)
    order = lambda pair: pair[0].error_id  # noqa: E731
    return sorted(moved, key=order), sorted(reworded, key=order)


def reclassed(removed: list[ErrorInfo], added: list[ErrorInfo], renamed: Moves | None = None
              ) -> list[tuple[ErrorInfo, ErrorInfo]]:
    """Checks a function gave another class, their words kept or alike; the rules above pair one check given
    another class, or one repeated in n branches.

    First a function that gave all the checks it lost one other class at once: the n errors it lost, all of
    one class, and the n it gained, all of another, paired when each is the other's most alike (difflib's
    ratio of their skeletons) and at least REWORD_SIMILARITY alike: jax 0.4.26 made
    `ArrayImpl.__dlpack_device__`'s four `ValueError`s `BufferError`s. Then, in one function, the n errors of
    some words (a skeleton of MIN_MOVED_SKELETON characters or more) it lost and the n of the same words it
    gained, of other classes: jax 0.6.0 made `broadcasting_sharding_rule`'s `TypeError` and `ValueError`
    `ShardingTypeError`s."""
    renamed = renamed or Moves()
    pairs: list[tuple[ErrorInfo, ErrorInfo]] = []
    for _place, (olds, news) in _by_place(removed, added, renamed).items():
        if (len(olds) < 2 or len(olds) != len(news) or len({o.class_name for o in olds}) != 1
                or len({n.class_name for n in news}) != 1 or olds[0].class_name == news[0].class_name):
            continue
        ratio = [[difflib.SequenceMatcher(None, o.skeleton, n.skeleton, autojunk=False).ratio() for n in news]
                 for o in olds]
        best_new = [max(range(len(news)), key=lambda j, i=i: (ratio[i][j], -j)) for i in range(len(olds))]
        best_old = [max(range(len(olds)), key=lambda i, j=j: (ratio[i][j], -i)) for j in range(len(news))]
        if all(best_old[j] == i and ratio[i][j] >= REWORD_SIMILARITY for i, j in enumerate(best_new)):
            pairs += [(olds[i], news[j]) for i, j in enumerate(best_new)]
    paired = {o.error_id for o, _ in pairs} | {n.error_id for _, n in pairs}
    same_words = _by_place([o for o in removed if o.error_id not in paired],
                           [n for n in added if n.error_id not in paired], renamed,
                           lambda info: " ".join(info.skeleton.split()))
    for (_place, words), (olds, news) in same_words.items():
        if (len(words) >= MIN_MOVED_SKELETON and len(olds) == len(news)
                and not {o.class_name for o in olds} & {n.class_name for n in news}):
            pairs += zip(olds, news)
    return pairs


def _by_place(removed: list[ErrorInfo], added: list[ErrorInfo], renamed: Moves,
              also: Callable[[ErrorInfo], str] = lambda info: "") -> dict[tuple, tuple[list, list]]:
    """The errors lost and gained by each function ((path, qualname), where a renamed file or a moved function
    counts as standing now, and `also` of each error): {key: (lost, gained)}, each list by id, in key order."""
    found: dict[tuple, tuple[list, list]] = defaultdict(lambda: ([], []))
    for info in removed:
        found[(renamed.path_of(info), info.qualname), also(info)][0].append(info)
    for info in added:
        found[(info.path, info.qualname), also(info)][1].append(info)
    return {key: (sorted(lost, key=lambda i: i.error_id), sorted(gained, key=lambda i: i.error_id))
            for key, (lost, gained) in sorted(found.items()) if lost and gained}


def rewritten(removed: list[ErrorInfo], added: list[ErrorInfo], renamed: Moves,
              raising_after: Callable[[], Container[tuple[str, str]]]) -> list[tuple[ErrorInfo, ErrorInfo]]:
    """Errors rewritten in place: the only one of a class that a function (or a file, if the words are still
    somewhat alike) lost, and the only one of that class it gained; then the only one of any class a
    function lost and gained, when the words are alike or one has none.

    Their words may share little (`IO effect not supported in vmap-of-while.` became `Unordered IO
    effects not supported in while_loop with batched predicate`), but the check is the same one.
    `renamed` tells where files and functions went (`Moves`).

    A check goes to another function of its file only from a function that no longer raises
    (`raising_after`, as `match_lineage` takes it, asked once): where the function still raises, its
    check was dropped (jax 0.8.2 dropped `FragmentedArray.broadcast_in_dim`'s `Layout shape ... does not
    match broadcast shape ...` and gave `reshape` a check of its own).
    """
    pairs: list[tuple[ErrorInfo, ErrorInfo]] = []
    raising = functools.cache(raising_after)

    def in_place_or_gone(olds: list[ErrorInfo], news: list[ErrorInfo]) -> bool:
        """Whether the checks stay in their one function, or left functions that raise no more."""
        if len({info.qualname for info in olds + news}) == 1:
            return True
        return not any((renamed.path_of(old), old.qualname) in raising() for old in olds)

    def alike_by(threshold: float) -> Callable[[ErrorInfo, ErrorInfo], float | None]:
        return lambda old, new: _alike(old.skeleton, new.skeleton, threshold, contained=None)

    places = (  # (where an error is, how alike the two must be)
        (lambda i, path: (path, i.qualname, i.class_name), alike_by(0.0)),
        (lambda i, path: (path, i.class_name), alike_by(REWRITE_SIMILARITY)),
        (lambda i, path: (path, i.qualname), _alike_or_unsayable),
    )
    for place, alike in places:
        linked = {o.error_id for o, _ in pairs} | {n.error_id for _, n in pairs}
        lost, gained = defaultdict(list), defaultdict(list)
        for info in removed:
            if info.error_id not in linked:
                lost[place(info, renamed.path_of(info))].append(info)
        for info in added:
            if info.error_id not in linked:
                gained[place(info, info.path)].append(info)
        for key, olds in lost.items():
            news = gained.get(key, [])
            if (_one_check(olds, news) and _one_name(olds[0], news[0], renamed)
                    and alike(olds[0], news[0]) is not None and in_place_or_gone(olds, news)):
                pairs += zip(sorted(olds, key=lambda i: i.error_id), sorted(news, key=lambda i: i.error_id))
    return pairs


def _one_check(olds: list[ErrorInfo], news: list[ErrorInfo]) -> bool:
    """Whether a place lost one check and gained one: an error each, or as many of each, the olds worded
    alike and the news worded alike (a check repeated in n branches, as `Trace.full_raise` raised its
    leaked-tracer error in 4 until jax 0.2.19). Which of n raises pairs with which is left to their ids."""
    return len(olds) == len(news) > 0 and len({o.skeleton for o in olds}) == 1 == len({n.skeleton for n in news})


def _one_name(old: ErrorInfo, new: ErrorInfo, renamed: Moves | None = None) -> bool:
    """Whether two errors may be one check as far as the names modules removed go: an entry of a module's deprecation
    table (`deprecation_tables`) is one check only with the entry of the same name in the same module (`renamed`: where
    files went). `jax.tree_flatten was removed ...` reads like `jax.tree_leaves was removed ...`, and `Device` of
    `jax.lib.xla_client` is not `Device` of `jax.lib.xla_extension`."""
    if not (is_removed_name(old.qualname) or is_removed_name(new.qualname)):
        return True
    return old.qualname == new.qualname and new.path in (old.path, (renamed or Moves()).path_of(old))


def renamed_files(removed: list[ErrorInfo], added: list[ErrorInfo]) -> dict[str, str]:
    """Files whose functions went to another file: {old path: new path}.

    A file counts as renamed to the one that gained errors of the same function and class for the
    most of its functions, when they are at least RENAMED_FILE_FUNCTIONS.
    """
    gained_at: dict[tuple[str, str], set[str]] = defaultdict(set)
    for info in added:
        if not is_removed_name(info.qualname):  # names two modules' tables share say nothing of a file's moving
            gained_at[info.qualname, info.class_name].add(info.path)
    shared: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for info in removed:
        for path in gained_at.get((info.qualname, info.class_name), ()):
            if path != info.path:
                shared[info.path][path].add(info.qualname)
    renamed = {}
    for old_path, targets in shared.items():
        new_path, functions = max(targets.items(), key=lambda item: (len(item[1]), item[0]))
        if len(functions) >= RENAMED_FILE_FUNCTIONS:
            renamed[old_path] = new_path
    return renamed


def _alike_or_unsayable(old: ErrorInfo, new: ErrorInfo) -> float | None:
    """For a check given another class: words alike, or one holding the other but for a sentence added or
    dropped (jax 0.12.0 made `Cannot `wait_send` on a local copy.` a `RuntimeError` and told what to use
    instead), or none to compare (an error class's `{}`, which builds its message itself)."""
    if not spells_words(old.skeleton) or not spells_words(new.skeleton):
        return 0.0
    return _alike(old.skeleton, new.skeleton, REWRITE_SIMILARITY, contained=CONTAINED_WORDS)


def _alike(old: str, new: str, threshold: float, *, contained: float | None) -> float | None:
    """How alike two skeletons are, if at least `threshold`: difflib's ratio; or, with `contained` (not None),
    where one holds the other but for a sentence added or dropped, `threshold` itself: CONTAINED_SHARE of the
    shorter one's characters, and `contained` of the words of the one of fewer words (`_words_held`)."""
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    if matcher.real_quick_ratio() >= threshold and matcher.quick_ratio() >= threshold:
        ratio = matcher.ratio()
        if ratio >= threshold:
            return ratio
    shorter = min(len(old), len(new))
    if contained is None or shorter < MIN_MOVED_SKELETON:
        return None
    # quick_ratio bounds the characters the two share: too few, and the shorter cannot be held.
    if matcher.quick_ratio() * (len(old) + len(new)) / 2 < CONTAINED_SHARE * shorter:
        return None
    held = sum(block.size for block in matcher.get_matching_blocks()) / shorter
    return threshold if held >= CONTAINED_SHARE and (contained <= 0 or _words_held(old, new) >= contained) else None


def _words_held(old: str, new: str) -> float:
    """The share of the words of the skeleton of fewer words, case aside, that the other holds in the same order (as
    difflib's matching blocks count them)."""
    few, many = sorted((re.findall(r"\w+", old.lower()), re.findall(r"\w+", new.lower())), key=len)
    matcher = difflib.SequenceMatcher(None, few, many, autojunk=False)
    return sum(block.size for block in matcher.get_matching_blocks()) / max(len(few), 1)


def _link(old: ErrorInfo, new: ErrorInfo, renamed: Moves) -> str | None:
    """How two errors of one class may be one: in the same function, the same file, or moved anywhere.

    A renamed file, or the file a function went to (`Moves`), is the same file.
    """
    same_file = new.path in (old.path, renamed.path_of(old))
    if not _one_name(old, new, renamed):
        return None
    if old.qualname == new.qualname and same_file:
        return "function"
    if same_file:
        return "file"
    return "moved" if len(old.skeleton) >= MIN_MOVED_SKELETON else None


def diff_snapshots(session: Session, old: Snapshot, new: Snapshot,
                   paths: dict[int, dict[str, str]] | None = None,
                   raising: Callable[[Snapshot], set[tuple[str, str]]] | None = None) -> SnapshotDiff:
    """Errors added, removed and reworded between two snapshots (`paths`: `error_paths_by_snapshot`'s, if read;
    `raising`: `raising_functions` of a snapshot, if cached)."""
    paths = paths if paths is not None else error_paths_by_snapshot(session)
    raising = raising or functools.partial(raising_functions, session)
    old_paths, new_paths = paths.get(old.id, {}), paths.get(new.id, {})
    removed = error_infos(session, old, old_paths.keys() - new_paths.keys())
    added = error_infos(session, new, new_paths.keys() - old_paths.keys())
    moved, reworded = match_lineage(list(removed.values()), list(added.values()),
                                    relocated(session, old, new, old_paths, new_paths) if removed and added else (),
                                    lambda: raising(new))
    linked_old = {o.error_id for o, _ in moved + reworded}
    linked_new = {n.error_id for _, n in moved + reworded}
    return SnapshotDiff(
        old, new,
        added=sorted((i for i in added.values() if i.error_id not in linked_new), key=lambda i: (i.path, i.error_id)),
        removed=sorted((i for i in removed.values() if i.error_id not in linked_old), key=lambda i: (i.path, i.error_id)),
        reworded=reworded,
        moved=moved,
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
    paths = error_paths_by_snapshot(session)
    histories: dict[str, ErrorHistory] = {}
    for snapshot in snapshots:
        for error_id in sorted(paths.get(snapshot.id, ())):
            histories.setdefault(error_id, ErrorHistory(error_id)).snapshots.append(snapshot)
    raising = functools.cache(lambda snapshot: raising_functions(session, snapshot))
    diffs = [diff_snapshots(session, older, newer, paths, raising) for older, newer in zip(snapshots, snapshots[1:])]
    for diff in diffs:
        for old, new in diff.reworded:
            histories[old.error_id].reworded_to.append(new.error_id)
            histories[new.error_id].reworded_from.append(old.error_id)
        for old, new in diff.moved:
            histories[old.error_id].moved_to.append(new.error_id)
            histories[new.error_id].moved_from.append(old.error_id)
    position = {s.id: i for i, s in enumerate(snapshots)}
    for history in histories.values():
        after = position[history.last.id] + 1
        if after < len(snapshots):
            history.retired_since = snapshots[after]
    rank = lambda snapshot: position[snapshot.id]  # noqa: E731
    link_along_the_line(histories, line_links(session), rank)
    hand_over(histories, diffs, rank, raising)
    return CatalogueHistory(snapshots, diffs, histories)


class _Twin(NamedTuple):
    """A retired error and an error that may have taken its check over (`hand_over`)."""

    ratio: float
    old: ErrorInfo
    new: ErrorInfo
    rewrite: tuple[str, int, int]  # (the old one's file, when it retired, when the new one was born)

    @property
    def order(self) -> tuple[float, int, str, str]:
        """Most alike first, then the earlier retired, then by ids."""
        return -self.ratio, self.rewrite[1], self.old.error_id, self.new.error_id

    @property
    def same_words(self) -> bool:
        return _plain(self.old.skeleton) == _plain(self.new.skeleton)


def hand_over(errors: dict[str, ErrorHistory], diffs: list[SnapshotDiff], rank: Callable[[Snapshot], int],
              raising: Callable[[Snapshot], set[tuple[str, str]]]) -> None:
    """Retired errors that nothing links onward, linked to the twin that took their check over.

    JAX often writes a check anew beside the old one and removes the old one a release or more
    later. jax 0.6.0 raised `Scan carry input and output got mismatched varying manual axes` in
    `loops.py`, and five more such checks elsewhere, while `shard_map.py` still raised `...
    mismatched replication types` and the rest; those went in 0.6.1. No snapshot diff pairs them,
    since the new ones were born before the old ones went.

    A retired error is one whose last snapshot is the last it is raised in (not one that is raised
    again later). A twin is an error first raised then (no predecessor, and not raised before) after
    the retired one was first raised, no later than its retirement, and still raised then (or linked
    on to what it became by the diffs or the history line); of its class
    or of a narrower one (`Exception` became `ValueError`); whose skeleton is at least
    HANDOVER_SIMILARITY alike, case and spacing aside. The retired error's function (`raising`:
    the functions that raise in a snapshot) must be gone: where it still raises, the check was
    dropped or rewritten in place. An error born with the retired one is its sibling, not its
    successor.

    Words a little alike are not enough: a retired `mean does not support the out argument` is alike
    to `nanmean ...`, which lives on beside it. A retired error hands over to a twin that words it
    the same, or as one of a rewrite: at least HANDOVER_FAMILY errors of one file, retired together,
    whose most alike twins were born together. Most alike first, then the earlier retired; each twin
    takes over one check.
    """
    born = sorted((rank(diff.new), info.error_id, info) for diff in diffs for info in diff.added
                  if rank(errors[info.error_id].first) == rank(diff.new)
                  and not errors[info.error_id].predecessors and len(info.skeleton) >= MIN_MOVED_SKELETON)
    positions = [position for position, _, _ in born]
    skeletons = [_plain(info.skeleton) for _, _, info in born]
    twins: list[_Twin] = []
    for diff in diffs:
        retired = rank(diff.new)
        for old in diff.removed:
            history = errors[old.error_id]
            if (history.reworded_to or history.moved_to or len(old.skeleton) < MIN_MOVED_SKELETON
                    or rank(history.last) != rank(diff.old)):  # not its last removal: it comes back
                continue
            start = bisect.bisect_right(positions, rank(history.first))
            window = skeletons[start:bisect.bisect_right(positions, retired)]
            plain = _plain(old.skeleton)
            found = []
            # rapidfuzz's ratio is never below difflib's: a quick way to the few alike enough.
            for _, _, index in process.extract(plain, window, scorer=fuzz.ratio, limit=None,
                                               score_cutoff=100 * HANDOVER_SIMILARITY):
                position, new_id, new = born[start + index]
                if _lives_to(errors[new_id], retired, rank) and _narrower_or_same(old, new) and _one_name(old, new) \
                        and (ratio := _alike(plain, window[index], HANDOVER_SIMILARITY, contained=None)) is not None:
                    found.append(_Twin(ratio, old, new, (old.path, retired, position)))
            if found and (old.path, old.qualname) not in raising(diff.new):
                twins += found
    twins.sort(key=lambda twin: twin.order)
    most_alike = {}
    for twin in twins:
        most_alike.setdefault(twin.old.error_id, twin)
    rewrites = Counter(twin.rewrite for twin in most_alike.values())
    taken_old: set[str] = set()
    taken_new: set[str] = set()
    for twin in twins:
        old_id, new_id = twin.old.error_id, twin.new.error_id
        if old_id in taken_old or new_id in taken_new or not (
                twin.same_words or rewrites[twin.rewrite] >= HANDOVER_FAMILY):
            continue
        taken_old.add(old_id)
        taken_new.add(new_id)
        if twin.same_words:
            errors[old_id].moved_to.append(new_id)
            errors[new_id].moved_from.append(old_id)
        else:
            errors[old_id].reworded_to.append(new_id)
            errors[new_id].reworded_from.append(old_id)


def _lives_to(history: ErrorHistory, position: int, rank: Callable[[Snapshot], int]) -> bool:
    """Whether an error, or what it became, is raised in the snapshot at `position`."""
    return rank(history.last) >= position or bool(history.reworded_to or history.moved_to)


def _plain(skeleton: str) -> str:
    """A skeleton as a reader compares it: case and spacing left out (`vjp function` is `VJP function`)."""
    return " ".join(skeleton.casefold().split())


def _narrower_or_same(old: ErrorInfo, new: ErrorInfo) -> bool:
    """Whether `new` raises the class `old` raised, or one that an `except` of it still catches: `Exception` catches
    any, and a built-in class its built-in subclasses (`LookupError` catches `KeyError`)."""
    if old.class_name == new.class_name or old.class_name == "Exception":
        return True
    base, narrower = getattr(builtins, old.class_name, None), getattr(builtins, new.class_name, None)
    return isinstance(base, type) and isinstance(narrower, type) and issubclass(narrower, base)


def line_links(session: Session) -> dict[str, list[tuple[int, str, str]]]:
    """What the catalogue's first-parent history line (`crawl --history`) links each id to, commit by commit:
    {earlier id: [(position, kind, later id)]}, kind `reworded` or `moved`, in commit order. Empty without a line."""
    links: dict[str, list[tuple[int, str, str]]] = defaultdict(list)
    for position, kind, previous, current in session.execute(
        select(HistoryEvent.position, HistoryEvent.kind, HistoryEvent.previous_id, HistoryEvent.error_id)
        .where(HistoryEvent.previous_id.is_not(None), HistoryEvent.previous_id != HistoryEvent.error_id)
        .order_by(HistoryEvent.position, HistoryEvent.id)
    ):
        links[previous].append((position, kind, current))
    return links


def link_along_the_line(errors: dict[str, ErrorHistory], links: dict[str, list[tuple[int, str, str]]],
                        rank: Callable[[Snapshot], int]) -> None:
    """Retired errors that no snapshot diff links onward, linked to the snapshot errors the history line leads them to.

    Between two releases a check may be moved to another file and reworded, which no snapshot diff
    links; commit by commit each step is small enough to link (`host_callbacks are not yet
    implemented for the jax2tf native lowering`, in `jax2tf/jax_export.py` until 0.4.8, is
    `serialization of host_callbacks is not yet implemented` in `_src/export/_export.py`). Ids that
    only commits between snapshots had are followed through, each step in a later commit than the
    one before; the nearest snapshot errors reached that first appear after the retired error's last
    snapshot (`rank` orders snapshots) are linked, as reworded if a step on the way was a rewording,
    else as moved. A reverted change leads nowhere: its error was raised again after it.
    """
    for history in errors.values():
        if history.retired_since is None or history.reworded_to or history.moved_to:
            continue
        last = rank(history.last)
        reached: dict[str, bool] = {}  # snapshot error -> reworded on the way
        seen, frontier = {history.error_id}, [(history.error_id, False, -1)]
        while frontier and not reached:
            following = []
            for current, reworded, after in frontier:
                for position, kind, later in links.get(current, ()):
                    if position <= after or later in seen:
                        continue
                    seen.add(later)
                    step = reworded or kind == "reworded"
                    if later not in errors:
                        following.append((later, step, position))
                    elif rank(errors[later].first) > last:
                        reached[later] = step
            frontier = following
        for later, reworded in sorted(reached.items()):
            if reworded:
                history.reworded_to.append(later)
                errors[later].reworded_from.append(history.error_id)
            else:
                history.moved_to.append(later)
                errors[later].moved_from.append(history.error_id)
