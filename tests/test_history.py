"""History, diff and refresh over a throwaway git history."""

from sqlalchemy.orm import Session

from jax_errors.crawler.crawl import crawl_snapshot
from jax_errors.crawler.refresh import refresh
from jax_errors.crawler.repository import JaxRepository
from jax_errors.db.history import (
    CONTAINED_WORDS,
    FILE_REWORD_SIMILARITY,
    ErrorInfo,
    _alike,
    catalogue_history,
    diff_snapshots,
    lineage,
    match_lineage,
    ordered_snapshots,
)
from jax_errors.db.queries import find_snapshot

V1 = '''
    def check(x):
        if x < 0:
            raise ValueError(f"x must be non-negative, got {x}")
        raise TypeError("this one goes away")
'''
V2 = '''
    def check(x):
        if x < 0:
            raise ValueError(f"x must be non-negative, but got {x}")
        if x > 9:
            raise OverflowError("brand new")
'''
V3 = V2 + '''

    def more():
        raise KeyError("later")
'''


def history(git_repo):
    return [
        git_repo.commit({"jax/core.py": V1}, "one", tag="jax-v0.0.1"),
        git_repo.commit({"jax/core.py": V2}, "two", tag="jax-v0.0.2"),
        git_repo.commit({"jax/core.py": V3}, "three"),
    ]


def crawl_all(engine, git_repo, revs):
    with JaxRepository(git_repo.path) as repository:
        for rev in revs:
            crawl_snapshot(engine, repository.snapshot(rev))


def test_diff_finds_added_removed_and_reworded(fresh_db, git_repo):
    crawl_all(fresh_db, git_repo, history(git_repo)[:2])
    with Session(fresh_db) as session:
        diff = diff_snapshots(session, find_snapshot(session, "jax-v0.0.1"), find_snapshot(session, "jax-v0.0.2"))
        assert [i.template for i in diff.added] == ["brand new"]
        assert [i.template for i in diff.removed] == ["this one goes away"]
        [(old, new)] = diff.reworded
        assert (old.template, new.template) == (
            "x must be non-negative, got {x}", "x must be non-negative, but got {x}")
        assert diff.summary() == "jax-v0.0.1 -> jax-v0.0.2: 1 added, 1 removed, 0 moved, 1 reworded"


def test_history_links_rewordings_and_retired_errors(fresh_db, git_repo):
    shas = history(git_repo)
    crawl_all(fresh_db, git_repo, shas)
    with Session(fresh_db) as session:
        assert [s.label for s in ordered_snapshots(session)] == ["jax-v0.0.1", "jax-v0.0.2", shas[2][:10]]
        histories = catalogue_history(session).errors
        diff = diff_snapshots(session, find_snapshot(session, "jax-v0.0.1"), find_snapshot(session, "jax-v0.0.2"))
        [(old, new)] = diff.reworded
        assert histories[old.error_id].reworded_to == [new.error_id]
        assert histories[new.error_id].aliases == [old.error_id]
        assert histories[old.error_id].retired_since.label == "jax-v0.0.2"
        [gone] = diff.removed
        assert [s.label for s in histories[gone.error_id].snapshots] == ["jax-v0.0.1"]
        [brand_new] = diff.added
        assert histories[brand_new.error_id].retired_since is None
        assert len(histories[brand_new.error_id].snapshots) == 2


def test_refresh_crawls_only_new_commits(fresh_db, git_repo):
    shas = history(git_repo)
    with JaxRepository(git_repo.path) as repository:
        first = refresh(fresh_db, repository, shas[0])
        assert [c.commit for c in first.crawls] == [shas[0]] and first.diff is None
        second = refresh(fresh_db, repository, "main")
        assert [c.commit for c in second.crawls] == shas[1:]
        assert second.parsed == 2
        assert (len(second.diff.added), len(second.diff.removed), len(second.diff.reworded)) == (2, 1, 1)
        assert refresh(fresh_db, repository, "main").summary() == "main: up to date"


def test_an_undated_installed_snapshot_sorts_among_releases_by_version(fresh_db):
    from datetime import datetime

    from jax_errors.db.models import Snapshot

    def snapshot(commit, tag, version, day):
        date = datetime(2026, 1, day) if day else None
        return Snapshot(commit=commit, tag=tag, version=version, origin="git", source="x",
                        committed_at=date, crawled_at=datetime(2026, 2, 1))

    with Session(fresh_db) as session:
        session.add_all([
            snapshot("a" * 40, "jax-v0.1.0", "0.1.0", 1),  # a wheel whose commit was also crawled from git
            snapshot("b" * 40, "jax-v0.3.0", None, 3),
            snapshot("c" * 40, "jax-v0.2.0", "0.2.0", None),  # an installed wheel: no commit date
            snapshot("d" * 40, None, None, 2),  # an untagged commit between the releases
        ])
        session.flush()
        assert [s.label for s in ordered_snapshots(session)] == ["jax-v0.1.0", "d" * 10, "jax-v0.2.0", "jax-v0.3.0"]


def test_a_patch_to_an_older_line_sorts_before_the_newer_line_whatever_its_date(fresh_db):
    from datetime import datetime

    from jax_errors.db.models import Snapshot

    def snapshot(commit, tag, day):
        return Snapshot(commit=commit * 40, tag=tag, version=None, origin="git", source="x",
                        committed_at=datetime(2026, 1, day), crawled_at=datetime(2026, 2, 1))

    with Session(fresh_db) as session:
        session.add_all([  # as jax 0.8.3 (2026-01-29) came after 0.9.0 (2026-01-20)
            snapshot("a", "jax-v0.1.0", 1), snapshot("b", "jax-v0.2.0", 10), snapshot("c", "jax-v0.1.1", 15),
            snapshot("d", None, 12), snapshot("e", "jax-v0.2.1", 20), snapshot("f", None, 16),
        ])
        session.flush()
        assert [s.label for s in ordered_snapshots(session)] == [
            "jax-v0.1.0", "jax-v0.1.1", "jax-v0.2.0", "d" * 10, "f" * 10, "jax-v0.2.1"]


def test_thirty_thousand_commits_go_between_their_releases_in_date_order():
    """A history crawl's commits: ordering them is a sort and a bisection each (inserting each into a list
    scanned from its start took minutes at this size)."""
    from datetime import datetime, timedelta

    from jax_errors.snapshots import in_release_order

    start = datetime(2024, 1, 1)
    commits = [(f"c{n}", None, start + timedelta(hours=n)) for n in range(30_000)]
    releases = [(f"0.{n}.0", f"0.{n}.0", start + timedelta(hours=1000 * n + 1)) for n in range(30)]
    ordered = in_release_order(commits[::-1] + releases, lambda s: s[1], lambda s: s[2])
    assert [s[0] for s in ordered[:3]] == ["c0", "0.0.0", "c1"] and ordered[1002][0] == "0.1.0"
    assert [s[2] for s in ordered] == sorted(s[2] for s in ordered)


# Lineage: a raise whose function or file was renamed, or whose words grew a sentence ----------

L1 = {
    "jax/tree_util.py": '''
    def register_dataclass(cls, data_fields):
        if data_fields is None:
            raise ValueError("data_fields and meta_fields must include all dataclass fields")

    class ArrayImpl:
        def __iter__(self):
            raise TypeError("iteration over a 0-d array")
''',
    "jax/api.py": '''
    def _check_scalar(x):
        raise TypeError(f"Gradient only defined for scalar-output functions. Output had shape: {x.shape}.")

    def short(x):
        raise ValueError(f"bad axis {x}")

    def renamed_here(x):
        raise ValueError(f"bad axes {x}")
''',
}
L2 = {
    "jax/tree_util.py": '''
    def _register_dataclass(cls, data_fields):
        if data_fields is None:
            raise ValueError("data_fields and meta_fields must include all dataclass fields")
''',
    "jax/lax_iter.py": '''
    def _iter(x):
        raise TypeError("iteration over a 0-d array")

    def shorter(x):
        raise ValueError(f"bad axis {x}")
''',
    "jax/api.py": '''
    def _check_scalar(x):
        raise TypeError(f"Gradient only defined for scalar-output functions. Output had shape: {x.shape}. "
                        "To get the gradient, reduce the output to a scalar with output.sum(), or use "
                        "jax.jacobian to differentiate a function with a non-scalar output.")

    def renamed_there(x):
        raise ValueError(f"bad axes {x}")
''',
}


def test_lineage_follows_renamed_functions_and_files_and_added_sentences(fresh_db, git_repo):
    crawl_all(fresh_db, git_repo, [git_repo.commit(L1, "one", tag="jax-v0.0.1"),
                                   git_repo.commit(L2, "two", tag="jax-v0.0.2")])
    with Session(fresh_db) as session:
        diff = diff_snapshots(session, find_snapshot(session, "jax-v0.0.1"), find_snapshot(session, "jax-v0.0.2"))
        moved = {(o.path, o.qualname, n.path, n.qualname) for o, n in diff.moved}
        assert moved == {("jax/tree_util.py", "register_dataclass", "jax/tree_util.py", "_register_dataclass"),
                         ("jax/tree_util.py", "ArrayImpl.__iter__", "jax/lax_iter.py", "_iter"),
                         ("jax/api.py", "renamed_here", "jax/api.py", "renamed_there")}
        [(old, new)] = diff.reworded  # a sentence added: alike by less than difflib's ratio says
        assert old.qualname == new.qualname == "_check_scalar" and "To get the gradient" in new.template
        # Too few words to follow into another file: removed and added.
        assert [i.qualname for i in diff.removed] == ["short"] and [i.qualname for i in diff.added] == ["shorter"]
        histories = catalogue_history(session).errors
        [(renamed_old, renamed_new)] = [(o, n) for o, n in diff.moved if o.qualname == "register_dataclass"]
        assert histories[renamed_new.error_id].moved_from == [renamed_old.error_id]
        assert lineage(renamed_new.error_id, histories) == [renamed_old.error_id]


def test_a_live_card_takes_the_curated_text_of_its_predecessor(fresh_db, git_repo, tmp_path):
    from jax_errors.site_gen.catalogue import load_catalogue
    from jax_errors.site_gen.knowledge import load_knowledge

    crawl_all(fresh_db, git_repo, [git_repo.commit(L1, "one", tag="jax-v0.0.1"),
                                   git_repo.commit(L2, "two", tag="jax-v0.0.2")])
    with Session(fresh_db) as session:
        diff = diff_snapshots(session, find_snapshot(session, "jax-v0.0.1"), find_snapshot(session, "jax-v0.0.2"))
        [(old, new)] = [(o, n) for o, n in diff.moved if o.qualname == "register_dataclass"]
    (tmp_path / f"{old.error_id}.md").write_text(f"---\nerror_id: {old.error_id}\ntitle: Missing fields\n---\nWhy.\n")
    cards = load_catalogue(fresh_db, knowledge=load_knowledge(tmp_path)).cards
    assert cards[new.error_id].knowledge.title == "Missing fields"
    assert [link.error_id for link in cards[old.error_id].history.moved_to] == [new.error_id]
    assert cards[old.error_id].history.retired_since is not None


def test_a_test_confirmed_at_an_older_release_verifies_the_live_id(fresh_db, git_repo):
    """Evidence carries forward along the lineage: a test that caught the old id counts for the moved one."""
    from datetime import datetime

    from jax_errors.db.evidence import verified_errors
    from jax_errors.db.models import ConfirmedTrigger, TriggerRun
    from jax_errors.site_gen.catalogue import load_catalogue

    crawl_all(fresh_db, git_repo, [git_repo.commit(L1, "one", tag="jax-v0.0.1"),
                                   git_repo.commit(L2, "two", tag="jax-v0.0.2")])
    with Session(fresh_db) as session, session.begin():
        old_release, new_release = find_snapshot(session, "jax-v0.0.1"), find_snapshot(session, "jax-v0.0.2")
        diff = diff_snapshots(session, old_release, new_release)
        [(old, new)] = [(o, n) for o, n in diff.moved if o.qualname == "register_dataclass"]
        run = TriggerRun(commit=old_release.commit, path="tests/tree_util_test.py", jax_version="0.0.1", status="ran",
                         exit_code=0, selected=1, passed=1, failed=0, skipped=0, seconds=1.0, ran_at=datetime(2026, 1, 1))
        session.add(run)
        run.triggers.append(ConfirmedTrigger(
            node_id="tests/tree_util_test.py::TreeTest::testFields", test_line=12, status="confirmed", matched=True,
            exc_class="ValueError", message="data_fields and meta_fields must include all dataclass fields",
            error_id=old.error_id, count=1))
    with Session(fresh_db) as session:
        verified = verified_errors(session, find_snapshot(session, "jax-v0.0.2"))
    assert verified.by_carried_tests == {new.error_id} and not verified.by_tests and not verified.by_cases
    assert verified.summary().startswith(f"1 of {verified.errors} errors of jax-v0.0.2 have a verified trigger: "
                                         "0 by JAX's tests, 1 more by tests carried through their lineage")
    cards = load_catalogue(fresh_db).cards
    [carried] = cards[new.error_id].tested_asserts
    assert (carried.error_id, carried.jax_version, carried.path) == (old.error_id, "0.0.1", "tests/tree_util_test.py")
    assert [t.error_id for t in cards[old.error_id].tests] == [old.error_id]


def test_stats_order_releases_by_version_and_commits_after_the_release_before_them():
    from datetime import datetime

    from jax_errors.snapshots import in_release_order

    snaps = [  # (name, release, date): 0.4.38 was uploaded after 0.5.0, the commit between 0.5.0 and 0.5.1
        ("0.5.1", "0.5.1", datetime(2025, 3, 1)), ("0.4.9", "0.4.9", datetime(2023, 5, 1)),
        ("head", None, datetime(2025, 2, 1)), ("0.4.38", "0.4.38", datetime(2025, 1, 20)),
        ("0.5.0", "0.5.0", datetime(2025, 1, 17)), ("undated", None, None), ("0.4.10", "0.4.10", None),
    ]
    ordered = in_release_order(snaps, lambda s: s[1], lambda s: s[2])
    assert [s[0] for s in ordered] == ["0.4.9", "0.4.10", "0.4.38", "0.5.0", "head", "0.5.1", "undated"]


# Lineage rules on the errors one snapshot lost and the next gained -----------------------------

def info(error_id, path, qualname, exc, skeleton):
    return ErrorInfo(error_id, exc, qualname, path, skeleton, skeleton)


def linked(removed, added):
    moved, reworded = match_lineage(removed, added)
    return ({(o.error_id, n.error_id) for o, n in moved}, {(o.error_id, n.error_id) for o, n in reworded})


MOVED_FUNCTIONS = [(f"f{i}", f"function {i} needs a concrete value, got {{}}") for i in range(3)]


def test_a_file_whose_functions_went_elsewhere_takes_its_errors_of_few_words_along():
    """jax 0.4.2 moved `jax/core.py` to `jax/_src/core.py`: a raise of `{}` follows its function there."""
    def errors(path, count):
        return [info(f"{path}:{name}", path, name, "TypeError", words) for name, words in MOVED_FUNCTIONS[:count]]

    short_old = info("old-array", "jax/core.py", "Tracer.__array__", "jax.errors.TracerArrayConversionError", "{}")
    short_new = info("new-array", "jax/_src/core.py", "Tracer.__array__",
                     "jax._src.errors.TracerArrayConversionError", "{}")
    moved, _ = linked(errors("jax/core.py", 3) + [short_old], errors("jax/_src/core.py", 3) + [short_new])
    assert ("old-array", "new-array") in moved and len(moved) == 4
    # Two functions gone (`Tracer.__array__` among them) are no renamed file: too few words to follow elsewhere.
    moved, reworded = linked(errors("jax/core.py", 1) + [short_old], errors("jax/_src/core.py", 1) + [short_new])
    assert moved == {("jax/core.py:f0", "jax/_src/core.py:f0")} and not reworded


def test_a_function_that_went_to_another_file_alone_takes_its_rewritten_check_along():
    """jax 0.9.2 moved `flatten_axis_resources` from `pjit.py` to `api_util.py`: one of its errors kept its id,
    and the raise of a maker's message (`raise e(what)`, `{}`) became `Mismatch details ...`."""
    kept_old = info("kept", "jax/_src/pjit.py", "flatten_axis_resources", "ValueError", "{} must be a tree prefix")
    kept_new = info("kept", "jax/_src/api_util.py", "flatten_axis_resources", "ValueError", "{} must be a tree prefix")
    maker = info("maker", "jax/_src/pjit.py", "flatten_axis_resources", "e", "{}")
    details = info("details", "jax/_src/api_util.py", "flatten_axis_resources", "ValueError",
                   "Mismatch details ({} found): {}")
    moved, reworded = match_lineage([maker], [details], [(kept_old, kept_new)])
    assert not moved and [(o.error_id, n.error_id) for o, n in reworded] == [("maker", "details")]
    assert linked([maker], [details]) == (set(), set())  # no error the function kept: no sign that it moved
    elsewhere = info("kept", "jax/_src/api_util.py", "other_function", "ValueError", "{} must be a tree prefix")
    assert match_lineage([maker], [details], [(kept_old, elsewhere)]) == ([], [])  # another function went there
    # A function of that name that still raises at the old path was left behind: its own rewrite pairs there.
    wrapper = info("wrapper", "jax/_src/pjit.py", "flatten_axis_resources", "e", "{} given to pjit")
    moved, reworded = match_lineage([maker], [details, wrapper], [(kept_old, kept_new)])
    assert not moved and [(o.error_id, n.error_id) for o, n in reworded] == [("maker", "wrapper")]


def test_a_check_goes_to_another_function_of_its_file_only_from_a_function_that_no_longer_raises():
    """jax 0.8.2 dropped `FragmentedArray.broadcast_in_dim`'s layout check while `reshape` gained one: the only
    `ValueError`s the file lost and gained, words somewhat alike. While `broadcast_in_dim` still raises, the check was
    dropped; from a function that raises no more, it went to the other."""
    path = "jax/experimental/mosaic/gpu/fragmented_array.py"
    old = info("old", path, "FragmentedArray.broadcast_in_dim", "ValueError",
               "Layout shape {} does not match broadcast shape {}")
    new = info("new", path, "FragmentedArray.reshape", "ValueError",
               "Can't reshape {} to {} with a tiled layout with base tile of {}")
    raising = {(path, "FragmentedArray.broadcast_in_dim"), (path, "FragmentedArray.reshape")}
    assert match_lineage([old], [new], raising_after=lambda: raising) == ([], [])
    assert match_lineage([old], [new], raising_after=lambda: raising - {(path, "FragmentedArray.broadcast_in_dim")}) \
        == ([], [(old, new)])
    assert linked([old], [new]) == (set(), {("old", "new")})  # unknown: the functions of the errors gained only
    # A check rewritten in its own function is its own, whatever else the function raises.
    again = info("again", path, "FragmentedArray.broadcast_in_dim", "ValueError", "Cannot broadcast {} to {}")
    assert match_lineage([old], [again], raising_after=lambda: raising) == ([], [(old, again)])


def test_one_check_holding_another_s_words_in_another_function_of_its_file_holds_its_words_not_letters():
    """A check found in another function's with a sentence added is one check: jax 0.1.44's `operands could not be
    broadcast together ...` went from `_promote_shapes` to `_rank_promotion_warning_or_error` and gained a pointer to
    the docs. Letters alone are not enough: jax 0.12.0 dropped `_get_pull_rule`'s `get not supported yet` and gave
    `_split_pull_rule` `split over partial blocks not supported yet: ...`, whose letters hold all but the `g`."""
    numpy = "jax/numpy/lax_numpy.py"
    promote = info("promote", numpy, "_promote_shapes", "ValueError",
                   "operands could not be broadcast together with shapes {} and with the config option "
                   "jax_numpy_rank_promotion='raise'.")
    warn = info("warn", numpy, "_rank_promotion_warning_or_error", "ValueError",
                "Operands could not be broadcast together for {} on shapes {} and with the config option "
                "jax_numpy_rank_promotion='raise'. For more information, see "
                "https://jax.readthedocs.io/en/latest/rank_promotion_warning.html.")
    # Another `ValueError` the file gained: no rewrite of the file's one check (`rewritten`) pairs them; the words do.
    other = info("other", numpy, "_check_arraylike", "ValueError", "{} requires ndarray or scalar arguments")
    assert linked([promote], [warn, other]) == (set(), {("promote", "warn")})
    fuser = "jax/_src/pallas/fuser/block_spec.py"
    get = info("get", fuser, "_get_pull_rule", "NotImplementedError", "get not supported yet")
    split = info("split", fuser, "_split_pull_rule", "NotImplementedError",
                 "split over partial blocks not supported yet: aval_in.shape={}, bt.block_shape={}, sizes={}, axis={}")
    assert _alike(get.skeleton, split.skeleton, FILE_REWORD_SIMILARITY, contained=0.0) == FILE_REWORD_SIMILARITY
    assert _alike(get.skeleton, split.skeleton, FILE_REWORD_SIMILARITY, contained=CONTAINED_WORDS) is None
    assert linked([get], [split]) == (set(), set())
    # In its own function a check is rewritten whatever the words (`rewritten`).
    split_here = info("split", fuser, "_get_pull_rule", "NotImplementedError", split.skeleton)
    assert linked([get], [split_here]) == (set(), {("get", "split")})
    # Words are compared case aside: jax 0.2.0's `axis_frame` dropped a sentence and began in small letters.
    assert _alike("Unbound axis name: {}. The currently bound axes are: {}", "unbound axis name: {}",
                  FILE_REWORD_SIMILARITY, contained=CONTAINED_WORDS) == FILE_REWORD_SIMILARITY


def test_a_check_given_another_class_in_its_function_with_a_sentence_added_is_rewritten():
    """jax 0.12.0 made `AsyncCopyDescriptor.wait_send`'s `ValueError` a `RuntimeError` and told what to use instead:
    the old words, all held, are a third of the new."""
    path = "jax/_src/pallas/mosaic/primitives.py"
    old = info("old", path, "AsyncCopyDescriptor.wait_send", "ValueError", "Cannot `wait_send` on a local copy.")
    new = info("new", path, "AsyncCopyDescriptor.wait_send", "RuntimeError",
               "Cannot `wait_send` on a local copy. Use `wait_read()` to await `src_ref` read, or `wait()` to also "
               "await the write to `dst_ref`.")
    assert linked([old], [new]) == (set(), {("old", "new")})
    other = info("new", path, "AsyncCopyDescriptor.wait_send", "RuntimeError",
                 "Cannot `wait_recv` on a remote copy. Use `wait_read()` to await `src_ref` read, or `wait()` to also "
                 "await the write to `dst_ref`.")
    assert linked([old], [other]) == (set(), set())
    # Letters alone are not enough across classes either: `get not supported yet` is not in the words of `split ...`.
    get = info("old", path, "AsyncCopyDescriptor.wait_send", "ValueError", "get not supported yet")
    split = info("new", path, "AsyncCopyDescriptor.wait_send", "RuntimeError",
                 "split over partial blocks not supported yet: aval_in.shape={}, bt.block_shape={}, sizes={}, axis={}")
    assert linked([get], [split]) == (set(), set())


def test_a_check_given_another_class_in_its_function_is_rewritten_when_its_words_are_the_class_s():
    before = info("generic", "jax/core.py", "Tracer.__array__", "Exception",
                  "The numpy.ndarray conversion method __array__() was called on the JAX Tracer object {}.")
    after = info("dedicated", "jax/core.py", "Tracer.__array__", "jax.errors.TracerArrayConversionError", "{}")
    assert linked([before], [after]) == (set(), {("generic", "dedicated")})
    unalike = info("other", "jax/core.py", "Tracer.__array__", "ValueError",
                   "this array has no buffer to read on the host, and never will")
    assert linked([before], [unalike]) == (set(), set())


def test_a_class_that_moved_module_is_the_same_class():
    words = "Encountered an unexpected tracer. Perhaps this tracer escaped through global state: {}"
    before = info("core", "jax/core.py", "Trace.full_raise", "jax.core.UnexpectedTracerError", words)
    after = info("errors", "jax/core.py", "Trace.full_raise", "jax.errors.UnexpectedTracerError", words)
    assert linked([before], [after]) == ({("core", "errors")}, set())


def test_one_check_repeated_in_several_branches_and_rewritten_is_linked_at_each():
    """`Trace.full_raise` raised its leaked-tracer error in 4 branches; jax 0.2.19 rewrote all 4 alike."""
    def raises(prefix, words, count):
        return [info(f"{prefix}{i}", "jax/core.py", "Trace.full_raise", "UnexpectedTracerError", words)
                for i in range(count)]

    old_words = "Encountered an unexpected tracer. Perhaps this tracer escaped through global state. Detail: {}"
    new_words = "A function transformed by JAX had a side effect, letting an intermediate value of shape {} escape"
    _, reworded = linked(raises("old", old_words, 4), raises("new", new_words, 4))
    assert reworded == {(f"old{i}", f"new{i}") for i in range(4)}
    # Four lost and three gained, or two checks lost: no telling which became which.
    assert linked(raises("old", old_words, 4), raises("new", new_words, 3)) == (set(), set())
    two_checks = raises("old", old_words, 2) + raises("other", "A second check of the same function: {}", 2)
    assert linked(two_checks, raises("new", new_words, 4)) == (set(), set())


def test_the_line_links_a_retired_error_forward_in_time_only():
    """Each step in a later commit, to an error first raised after the retired one's last snapshot: a revert (B
    back to A, which a later release raises again) or a step back in commits links nothing."""
    from types import SimpleNamespace

    from jax_errors.db.history import ErrorHistory, link_along_the_line

    s1, s2, s3 = (SimpleNamespace(id=i) for i in (1, 2, 3))

    def histories(a_last, b_first):
        """a raised from s1 to `a_last`, then retired; b raised from `b_first` to s3."""
        a = ErrorHistory("a", snapshots=[s1] if a_last is s1 else [s1, s2], retired_since=s2 if a_last is s1 else s3)
        return {"a": a, "b": ErrorHistory("b", snapshots=[b_first, s3])}

    def linked(errors, links):
        link_along_the_line(errors, links, lambda snapshot: snapshot.id)
        return errors["a"].reworded_to + errors["a"].moved_to

    assert linked(histories(s1, s2), {"a": [(10, "reworded", "x")], "x": [(12, "moved", "b")]}) == ["b"]
    assert linked(histories(s1, s2), {"a": [(10, "reworded", "x")], "x": [(8, "moved", "b")]}) == []  # back in time
    assert linked(histories(s2, s1), {"a": [(10, "reworded", "b")]}) == []  # b was raised before a's last
    errors = histories(s1, s2)
    assert linked(errors, {"a": [(10, "moved", "b")]}) == ["b"] and errors["b"].moved_from == ["a"]


REPLICATION = '''
    def scan_check(a, b):
        raise Exception(f"Scan carry input and output got mismatched replication types {a} and {b}."
                        " Please open an issue at https://github.com/jax-ml/jax/issues")

    def cond_check(a):
        raise Exception(f"The branches of cond produced mismatched replication types {a}."
                        " Please open an issue at https://github.com/jax-ml/jax/issues")

    def primitive_check(p, a):
        raise Exception(f"Primitive {p} requires argument replication types to match, but got {a}."
                        " Please open an issue at https://github.com/jax-ml/jax/issues")
'''
VARYING = REPLICATION.replace("Exception", "ValueError").replace("_check", "_rule").replace(
    "argument replication types", "varying manual axes").replace("replication types", "varying manual axes")


def test_a_rewrite_born_beside_the_checks_it_replaces_takes_them_over(fresh_db, git_repo):
    """jax 0.6.0 wrote shard_map's replication checks anew as `varying manual axes` checks in other files, and
    0.6.1 removed the old ones: each old check leads to its twin, of a narrower class."""
    revs = [git_repo.commit({"jax/shard_map.py": REPLICATION}, "old", tag="jax-v0.0.1"),
            git_repo.commit({"jax/shard_map.py": REPLICATION, "jax/core.py": VARYING}, "new beside", tag="jax-v0.0.2"),
            git_repo.commit({"jax/core.py": VARYING, "jax/shard_map.py": "x = 1\n"}, "old gone", tag="jax-v0.0.3")]
    crawl_all(fresh_db, git_repo, revs)
    with Session(fresh_db) as session:
        errors = catalogue_history(session).errors
    linked = {(errors[old].error_id, new) for old in errors for new in errors[old].reworded_to}
    words = {error_id: history.snapshots[0] for error_id, history in errors.items()}
    assert len(linked) == 3 and all(words[old].label == "jax-v0.0.1" and words[new].label == "jax-v0.0.2"
                                    for old, new in linked)
    assert {errors[new].reworded_from[0] for _, new in linked} == {old for old, _ in linked}


def _handed_over(raised, still_raising=frozenset()):
    """hand_over over snapshots 1..7, each error raised in the snapshots given (`raised`: [(ErrorInfo, numbers)]);
    `still_raising` names the (path, qualname) of functions raising in every snapshot. {old id: (kind, new ids)}."""
    from types import SimpleNamespace

    from jax_errors.db.history import ErrorHistory, SnapshotDiff, hand_over

    snaps = [SimpleNamespace(id=i) for i in range(1, 8)]
    errors = {}
    for error, numbers in raised:
        history = ErrorHistory(error.error_id, [snaps[n - 1] for n in sorted(numbers)])
        history.retired_since = snaps[max(numbers)] if max(numbers) < len(snaps) else None
        errors[error.error_id] = history
    diffs = [SnapshotDiff(old, new, added=[e for e, numbers in raised if new.id in numbers and old.id not in numbers],
                          removed=[e for e, numbers in raised if old.id in numbers and new.id not in numbers],
                          reworded=[]) for old, new in zip(snaps, snaps[1:])]
    hand_over(errors, diffs, lambda snapshot: snapshot.id, lambda snapshot: set(still_raising))
    return {i: ("reworded", h.reworded_to) if h.reworded_to else ("moved", h.moved_to)
            for i, h in errors.items() if h.reworded_to or h.moved_to}


def _twins(olds, news, *, still_raising=frozenset(), new_last=3, born=2, old_first=1):
    """`olds` raised from `old_first` to 2, `news` from `born` to `new_last` (`_handed_over`)."""
    return _handed_over([(o, range(old_first, 3)) for o in olds] + [(n, range(born, new_last + 1)) for n in news],
                        still_raising)


def test_a_twin_takes_over_a_check_in_the_same_words_or_as_one_of_a_rewrite():
    def old(i, words, exc="Exception"):
        return info(f"old{i}", "jax/shard_map.py", f"check{i}", exc, words)

    def new(i, words, exc="ValueError"):
        return info(f"new{i}", f"jax/new{i}.py", f"rule{i}", exc, words)

    checks = ["Scan carry input and output got mismatched {} types {} and {}.",
              "The branches of cond produced mismatched {} types. Please open an issue.",
              "Primitive {} requires argument {} types to match, but got {}."]
    olds = [old(i, words.replace("{} types", "replication types", 1)) for i, words in enumerate(checks)]
    news = [new(i, words.replace("{} types", "varying types", 1)) for i, words in enumerate(checks)]
    assert _twins(olds, news) == {f"old{i}": ("reworded", [f"new{i}"]) for i in range(3)}
    # Two reworded alike are no rewrite: `mean does not support ...` and `nanmean ...` live side by side.
    assert _twins(olds[:2], news[:2]) == {}
    # The same words but for case and spacing: a twin alone takes over.
    same = [new(0, "Scan  carry input and output got mismatched REPLICATION types {} and {}.")]
    assert _twins(olds[:1], same) == {"old0": ("moved", ["new0"])}
    assert _twins(olds[:1], same, new_last=2) == {}  # gone with it: nothing took over
    assert _twins(olds[:1], same, born=3) == {"old0": ("moved", ["new0"])}  # born as it went
    assert _twins(olds[:1], same, old_first=2) == {}  # born with it: a sibling
    assert _twins(olds[:1], same, still_raising={("jax/shard_map.py", "check0")}) == {}  # its function still raises
    assert _twins(olds[:1], [new(0, same[0].skeleton, exc="TypeError")]) == {"old0": ("moved", ["new0"])}
    assert _twins([old(0, same[0].skeleton, exc="ValueError")], [new(0, same[0].skeleton, exc="TypeError")]) == {}
    assert _twins([old(0, same[0].skeleton, exc="LookupError")], [new(0, same[0].skeleton, exc="KeyError")]) == {
        "old0": ("moved", ["new0"])}
    # Of two twins, the more alike takes over; each twin takes over one check.
    exact = info("exact", "jax/exact.py", "rule", "ValueError", olds[0].skeleton)
    assert _twins(olds, news + [exact]) == {"old0": ("moved", ["exact"]), "old1": ("reworded", ["new1"]),
                                             "old2": ("reworded", ["new2"])}
    assert _twins([olds[0], old(9, olds[0].skeleton)], [exact]) == {"old0": ("moved", ["exact"])}
    # Twins born apart are no rewrite: each reworded alike, but not written together.
    apart = [(o, range(1, 5)) for o in olds] + [(n, range(2 + i, 7)) for i, n in enumerate(news)]
    assert _handed_over(apart) == {}
    assert len(_handed_over([(o, range(1, 5)) for o in olds] + [(n, range(3, 7)) for n in news])) == 3


def test_only_a_check_gone_for_good_is_handed_over_and_the_earlier_retired_goes_first():
    words = "Scan carry input and output got mismatched replication types {} and {}. Please open an issue"
    back = info("back", "jax/a.py", "f", "ValueError", words)
    twin = info("twin", "jax/b.py", "g", "ValueError", words)
    # Gone from 3 to 4 and raised again from 5: it never retired, and the twin born beside it takes over nothing.
    assert _handed_over([(back, {1, 2, 5, 6, 7}), (twin, range(2, 8))]) == {}
    # An error raised again after a gap is no twin born then: it was raised before the retired one went.
    gone = info("gone", "jax/a.py", "h", "ValueError", words)
    assert _handed_over([(gone, range(2, 5)), (twin, {1, 3, 4, 5, 6, 7})]) == {}
    # Two retired errors, one twin: the one retired first takes it, whatever the ids say.
    first, later = info("z-first", "jax/a.py", "f", "ValueError", words), info("a-later", "jax/c.py", "k", "ValueError",
                                                                               words)
    taken = _handed_over([(first, range(1, 4)), (later, range(1, 5)), (twin, range(3, 8))])
    assert taken == {"z-first": ("moved", ["twin"])}


def test_a_function_that_gave_its_checks_another_class_at_once_keeps_each_check_s_lineage():
    """jax 0.4.26 made `ArrayImpl.__dlpack_device__`'s `ValueError`s `BufferError`s, their words kept: each old check
    is paired with the new one it reads most like. Checks of two classes are paired by their words kept, as jax 0.6.0
    made `broadcasting_sharding_rule`'s `TypeError` and `ValueError` `ShardingTypeError`s."""
    words = ["Couldn't get local_hardware_id for __dlpack__", "__dlpack__ only supported for unsharded arrays.",
             "Unknown GPU platform for __dlpack__: {}"]

    def checks(prefix, exc, texts):
        return [info(f"{prefix}{i}", "jax/_src/array.py", "ArrayImpl.__dlpack_device__", exc, text)
                for i, text in enumerate(texts)]

    old, new = checks("old", "ValueError", words), checks("new", "BufferError", words[::-1])
    assert linked(old, new) == (set(), {("old0", "new2"), ("old1", "new1"), ("old2", "new0")})
    # All given one other class at once, their words reworded a little: each pairs with the one it reads most like.
    assert linked(old[:2], checks("new", "BufferError", [w + " now" for w in words[:2]][::-1])) == (
        set(), {("old0", "new1"), ("old1", "new0")})
    assert linked(old[:2], checks("new", "BufferError", ["Couldn't get the device", "only unsharded arrays"])) == (
        set(), set())  # too unlike (below 0.6)
    # A check repeated in 2 branches and given another class is paired once, by `rewritten`.
    twice = checks("old", "ValueError", [words[0], words[0]])
    moved, reworded = match_lineage(twice, checks("new", "BufferError", [words[0], words[0]]))
    assert not moved and [(o.error_id, n.error_id) for o, n in reworded] == [("old0", "new0"), ("old1", "new1")]
    assert linked(old, checks("new", "ValueError", words)) == ({(f"old{i}", f"new{i}") for i in range(3)}, set())
    # Words kept, of several classes: each pairs with its words.
    mixed = old[:2] + checks("odd", "TypeError", words)[2:]
    assert linked(mixed, new) == (set(), {("old0", "new2"), ("old1", "new1"), ("odd2", "new0")})
    # Words alike but not kept, of several classes: no one re-classing, no words kept.
    assert linked(mixed, checks("new", "BufferError", [w + " now" for w in words])) == (set(), set())
    # Two alike to one new one, words too unlike, or, of several classes, too few words to pair by: nothing.
    alike = checks("old", "ValueError", [words[0], words[0] + " (twice)"])
    assert linked(alike, checks("new", "BufferError", [words[0], "x must be y"])) == (set(), {("old0", "new0")})
    assert linked(old[:2], checks("new", "BufferError", ["x must be y", "a must be b"])) == (set(), set())
    few = checks("old", "ValueError", ["{}"]) + checks("odd", "TypeError", ["", "{}: {}"])[1:]
    assert linked(few, checks("new", "AssertionError", ["{}", "{}: {}"])) == (set(), set())


def test_a_removed_name_is_one_check_only_with_its_own_module_s_entry_of_that_name():
    """The entries of deprecation tables (`crawler.deprecation_tables`): alike words link no other name, nor the same
    name in another module's table, and several such names moving between two tables do not make a file renamed."""
    def entry(error_id, path, name, words):
        return info(error_id, path, f"__getattr__({name!r})", "AttributeError", words)

    said = "{} was removed in JAX v0.6.0: use jax.Device instead."
    leaves = entry("leaves", "jax/__init__.py", "tree_leaves",
                   "jax.tree_leaves was removed in JAX v0.6.0: use jax.tree.leaves.")
    flatten = entry("flatten", "jax/__init__.py", "tree_flatten",
                    "jax.tree_flatten was removed in JAX v0.6.0: use jax.tree.flatten.")
    assert linked([leaves], [flatten]) == (set(), set())
    names = ("Device", "Client", "Buffer")
    client = [entry(f"c-{n}", "jax/lib/xla_client.py", n, said.format(f"jax.lib.xla_client.{n}")) for n in names]
    extension = [entry(f"e-{n}", "jax/lib/xla_extension.py", n, said.format(f"jax.lib.xla_extension.{n}"))
                 for n in names]
    assert linked(client, extension) == (set(), set())
    # The same module's entry of that name, reworded, is the same check.
    reworded = entry("leaves-now", "jax/__init__.py", "tree_leaves",
                     "jax.tree_leaves was removed; use jax.tree.leaves.")
    assert linked([leaves], [reworded]) == (set(), {("leaves", "leaves-now")})
