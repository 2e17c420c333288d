"""Probing jax: generated calls of public functions, kept only where they raise at a crawled raise site."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

import jax
import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session

from jax_errors.db.engine import copy_database, open_database
from jax_errors.db.models import ProbedCall
from jax_errors.reproduce.probe_calls import BY_NAME, LIKELY, POOL, SHARDED, SPARSE, Call, make_calls

# Calls as written -------------------------------------------------------------------------------


@pytest.mark.parametrize(("call", "text"), [
    (Call("jax.lax.reshape", ("jnp.ones((3,))", "-1")), "jax.lax.reshape(jnp.ones((3,)), -1)"),
    (Call("jax.numpy.sum", ("jnp.ones((3,))",), (("axis", "2"),)), "jax.numpy.sum(jnp.ones((3,)), axis=2)"),
    (Call("jax.lax.reshape", ("jnp.ones((3,))", "2"), jit=True), "jax.jit(jax.lax.reshape)(jnp.ones((3,)), 2)"),
    (Call("jax.vmap", ("lambda x: x",), (("in_axes", "2"),), ("jnp.ones((3,))",)),
     "jax.vmap(lambda x: x, in_axes=2)(jnp.ones((3,)))"),
    (Call("jax.Array.reshape", ("-1", "5")), "jnp.ones((2, 3)).reshape(-1, 5)"),
    (Call("jax.Array.__getitem__", ("'x'",)), "jnp.ones((2, 3))['x']"),
    (Call("jax.Array.at", ("(0, 0, 0)", "2")), "jnp.ones((2, 3)).at[(0, 0, 0)].set(2)"),
    (Call("jax.Array.flat", attribute=True), "jnp.ones((2, 3)).flat"),
    (Call("jax.Ref.__setitem__", ("0", "'x'")), "jax.new_ref(jnp.ones((2, 3)))[0] = 'x'"),
    (Call("jax.Array.devices", context="traced"), "jax.jit(lambda v: v.devices())(jnp.ones((2, 3)))"),
    (Call("jax.Array.sharding", attribute=True, context="traced"), "jax.jit(lambda v: v.sharding)(jnp.ones((2, 3)))"),
    (Call("jax.Array.at", ("0", "'x'"), context="traced"), "jax.jit(lambda v: v.at[0].set('x'))(jnp.ones((2, 3)))"),
    (Call("jax.lax.psum", ("v", "'y'"), context="vmap"),
     "jax.vmap(lambda v: jax.lax.psum(v, 'y'), axis_name='x')(jnp.ones((2, 3)))"),
])
def test_a_call_is_written_as_a_user_would_type_it(call, text):
    assert call.text == text


def test_a_snippet_that_needs_a_mesh_makes_the_8_cpu_devices_before_jax_starts():
    call = Call("jax.lax.psum", ("v", "'x'"), context="shard_map")
    snippet = call.snippet(frozenset({"jax.lax", "jax.numpy"}))
    assert snippet.startswith('import os\nos.environ["JAX_PLATFORMS"] = "cpu"\n'
                              'os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"\n\nimport jax\n')
    assert "XLA_FLAGS" not in Call("jax.lax.reshape", ("jnp.ones((3,))", "-1")).snippet()


def test_a_snippet_imports_only_what_its_call_names():
    by_jax = frozenset({"jax.lax", "jax.numpy"})  # what `import jax` imported by itself
    assert Call("jax.lax.reshape", ("jnp.ones((3,))", "-1")).snippet(by_jax) == (
        "import jax\nimport jax.numpy as jnp\n\njax.lax.reshape(jnp.ones((3,)), -1)\n")
    # `np.` inside `jnp.` is not numpy
    assert "import numpy" not in Call("jax.numpy.sum", ("jnp.ones((3,))",)).snippet(by_jax)
    assert Call("jax.numpy.sum", ("np.ones(3)",)).snippet(by_jax) == (
        "import jax\nimport numpy as np\n\njax.numpy.sum(np.ones(3))\n")
    assert Call("jax.vmap", ("0",)).snippet(by_jax) == "import jax\n\njax.vmap(0)\n"
    # a module `import jax` leaves out is imported, once, whether the function or a value names it
    assert Call("jax.experimental.sparse.bcoo_todense", ("0",)).snippet(by_jax) == (
        "import jax\nimport jax.experimental.sparse\n\njax.experimental.sparse.bcoo_todense(0)\n")
    assert Call("jax.Array.__getitem__", ("0",)).snippet(by_jax) == "import jax\nimport jax.numpy as jnp\n\njnp.ones((2, 3))[0]\n"


def test_calls_vary_one_argument_at_a_time_around_the_first_call_that_runs_clean():
    def fn(x, y, *, axis=0):
        pass

    clean = ("jnp.ones((3,))", "0")  # the only pair the fake function "accepts"
    made = []

    def make(call):
        made.append(call)
        return call.args == clean and not call.kwargs and not call.jit

    count = make_calls("m.fn", fn, make)
    assert count == len(made)
    search = made[:made.index(Call("m.fn", clean)) + 1]
    assert [c.args for c in search] == [(LIKELY[0], LIKELY[0]), (LIKELY[0], LIKELY[1]), clean]
    rest = made[len(search):]
    positional = [c for c in rest if not c.kwargs and not c.jit and len(c.args) == 2]
    # each varied call differs from the clean one in exactly one argument, every pool value in each place
    assert all(sum(a != b for a, b in zip(c.args, clean)) == 1 for c in positional)
    assert {c.args[0] for c in positional} | {clean[0]} == set(POOL)
    assert {c.args[1] for c in positional} | {clean[1]} == set(POOL)
    assert {c.kwargs[0][1] for c in rest if c.kwargs} == set(POOL)
    assert {c.kwargs[0][0] for c in rest if c.kwargs} == {"axis"}
    assert Call("m.fn", clean[:1]) in rest  # one argument too few
    jitted = [c for c in rest if c.jit]
    assert [c.args for c in jitted] == [clean, *(c.args for c in positional)]


def test_a_collective_is_also_called_where_its_axis_name_is_bound():
    def collective(x, axis_name, *, tiled=False):
        pass

    made = []
    make_calls("jax.lax.collective", collective, lambda call: made.append(call) or False)
    inside = [c for c in made if c.context]
    assert {c.context for c in inside} == {"shard_map", "vmap"}
    assert all(c.args[0] == "v" for c in inside)  # the value traced inside the context
    assert {c.args[1] for c in inside} >= {"'x'", "'y'", "None"}  # the bound axis, an unbound one, not a name
    assert Call("jax.lax.collective", ("v", "'x'"), context="shard_map").text == (
        "jax.shard_map(lambda v: jax.lax.collective(v, 'x'), mesh=jax.make_mesh((8,), ('x',)), "
        "in_specs=jax.P('x'), out_specs=jax.P('x'))(jnp.ones((8, 3)))")


def test_a_call_renders_its_values_and_function_as_the_worker_binds_them():
    call = Call("jax.lax.reshape", ("jnp.ones((3,))", "-1"), jit=True, then=("0",))
    names = {"jax.lax.reshape": "_f", "jnp.ones((3,))": "_0", "-1": "_1", "0": "_2"}
    assert call.render(names.get) == "jax.jit(_f)(_0, _1)(_2)"
    assert Call("jax.Array.__getitem__", ("'x'",)).render(lambda text: f"<{text}>") == "<jnp.ones((2, 3))>[<'x'>]"


def test_a_parameter_is_first_given_what_its_name_asks_for_and_a_required_keyword_is_given():
    def fn(key, shape, *, dimension_numbers, dtype=None):
        pass

    made = []
    make_calls("m.fn", fn, lambda call: made.append(call) or False)
    assert made[0] == Call("m.fn", ("jax.random.key(0)", "(2, 3)"),
                           (("dimension_numbers", "(((1,), (0,)), ((), ()))"),))
    # the required keyword stays in every call; each of its values is tried, and an optional one added to it
    assert all(call.kwargs[0][0] == "dimension_numbers" for call in made)
    assert {c.kwargs[0][1] for c in made} >= set(BY_NAME["dimension_numbers"]) | set(POOL)
    assert {c.kwargs[1][1] for c in made if len(c.kwargs) == 2 and c.kwargs[1][0] == "dtype"} >= {
        "jnp.float32", "jnp.int32"}
    assert not any(call.jit and call.kwargs for call in made)  # a traced tuple is not what a user passes


def test_a_sparse_function_is_first_given_a_sparse_array():
    def fn(mat):
        pass

    made = []
    make_calls("jax.experimental.sparse.fn", fn, lambda call: made.append(call) or False)
    assert made[0].args == (SPARSE,)


def test_a_numpy_function_is_also_called_with_explicitly_sharded_arrays():
    def fn(x, y, *, out_sharding=None):
        pass

    made = []
    make_calls("jax.numpy.fn", fn, lambda call: made.append(call) or call.args == (SHARDED[0], SHARDED[0]))
    sharded = [c for c in made if set(c.args) <= set(SHARDED) and c.args]
    # the clean call, then each place given each other sharding
    assert sharded[:3] == [Call("jax.numpy.fn", (SHARDED[0], SHARDED[0])),
                           Call("jax.numpy.fn", (SHARDED[1], SHARDED[0])),
                           Call("jax.numpy.fn", (SHARDED[2], SHARDED[0]))]
    assert {c.args for c in sharded} >= {(SHARDED[0], s) for s in SHARDED}
    assert any(c.kwargs and c.kwargs[0] == ("out_sharding", "jax.P('x')") and c.args == (SHARDED[0], SHARDED[0])
               for c in made)
    made.clear()
    make_calls("m.fn", fn, lambda call: made.append(call) or False)
    assert not any(value in SHARDED for call in made for value in call.args)  # only jax.numpy's, jax.lax's...


def test_a_snippet_defines_the_explicit_mesh_its_arrays_name():
    snippet = Call("jax.numpy.sum", (SHARDED[0],)).snippet(frozenset({"jax.numpy"}))
    assert 'os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"' in snippet
    mesh, call = snippet.splitlines()[-2:]
    assert mesh == ("explicit_mesh = jax.make_mesh((2, 4), ('x', 'y'), "
                    "axis_types=(jax.sharding.AxisType.Explicit,) * 2)")
    assert call == f"jax.numpy.sum({SHARDED[0]})"
    assert "explicit_mesh =" not in Call("jax.numpy.sum", ("jnp.ones((3,))",)).snippet()


def test_a_class_is_not_called_under_jit():
    class Thing:
        def __init__(self, size):
            pass

    made = []
    make_calls("m.Thing", Thing, lambda call: made.append(call) or True)
    assert made and not any(c.jit for c in made)


def test_a_limited_probe_says_its_count_is_of_the_rows_it_wrote():
    from jax_errors.reproduce.probe import ProbeReport

    full = ProbeReport("0.12.0.1", functions=2, calls=10, places=3, stored=[ProbedCall()] * 2)
    assert "; 2 errors with a probed call (not kept: none);" in full.summary()
    limited = replace(full, limited=True)
    assert "; 2 errors given a new or shorter probed call (not kept: none);" in limited.summary()


# Probing the installed jax ----------------------------------------------------------------------

@pytest.fixture(scope="module")
def probed(installed_db_path: Path, tmp_path_factory: pytest.TempPathFactory):
    """The installed catalogue, probed on three functions, indexing and a method a tracer refuses."""
    from jax_errors.reproduce.probe import probe_jax

    path = tmp_path_factory.mktemp("probe") / "catalogue.db"
    copy_database(installed_db_path, path)
    engine = open_database(path)
    report = probe_jax(engine, only=["jax.lax.reshape", "jax.lax.top_k", "jax.numpy.reshape", "jax.Array.__getitem__",
                                     "jax.Array.devices"],
                       jobs=2)
    return engine, report


def _rows(engine) -> dict[str, ProbedCall]:
    with Session(engine) as session:
        return {row.call: row for row in session.scalars(select(ProbedCall))}


# Per installed jax: the probed function whose sharding rule refuses an explicitly sharded array, and its words.
SHARDING_REFUSED = {"0.12.0.1": ("jax.lax.top_k", "The input should be unsharded over the axis along which to compute"),
                    "0.12.1": ("jax.lax.reshape", "This reshape is not supported. Please specify the sharding of")}


@pytest.mark.slow
def test_a_probe_keeps_calls_that_raise_at_a_raise_site_with_the_sites_class_and_message(probed):
    engine, report = probed
    rows = _rows(engine)
    assert report.functions == 5 and report.calls > 300 and not report.failures
    assert len(report.stored) == len(rows) >= 10
    negative = rows["jax.lax.reshape(jnp.ones((3,)), -1)"]
    assert negative.exc_class == "TypeError" and negative.message == "reshape new_sizes must all be positive, got (-1,)."
    assert (negative.path, negative.function) == ("jax/_src/lax/lax.py", "jax.lax.reshape")
    assert rows["jnp.ones((2, 3))['x']"].message.startswith("JAX does not support string indexing")
    # no message names this machine's folders (jit's "tracing the function f at .../jax/_src/x.py:N")
    assert not any(sys.prefix in r.message or "site-packages" in r.message for r in rows.values())
    # one row per error id: the shortest call that raised it
    assert len({row.error_id for row in rows.values()}) == len(rows)
    # errors raised by Python itself inside jax (no raise statement) are not kept: reshape(0, jnp.float32)
    # fails iterating over the dtype, in jax's code but not at a raise; iterating a 0-d array is one
    assert report.rejected["no raise site there"] > 0
    assert not any("object is not iterable" in row.message for row in rows.values())
    assert any(row.message == "iteration over a 0-d array" for row in rows.values())  # Array.__iter__'s raise
    # a method an array allows and a tracer refuses
    traced = rows["jax.jit(lambda v: v.devices())(jnp.ones((2, 3)))"]
    assert (traced.exc_class, traced.path) == ("jax.errors.ConcretizationTypeError", "jax/_src/core.py")
    # a sharding rule refuses an explicitly sharded array (top_k over a sharded axis until 0.12.1 allowed it)
    function, words = SHARDING_REFUSED.get(jax.__version__, SHARDING_REFUSED["0.12.0.1"])
    sharded = [row for row in rows.values() if row.function == function and "explicit_mesh =" in row.snippet]
    assert [row.exc_class for row in sharded] == ["jax._src.core.ShardingTypeError"]
    assert sharded[0].message.startswith(words)


@pytest.mark.slow
def test_every_probed_snippet_raises_as_shown_at_its_site(probed):
    engine, _ = probed
    for row in _rows(engine).values():
        # as a user runs it: one CPU device unless the snippet asks for more; jax's frames kept, to find the raise
        environ = {k: v for k, v in os.environ.items() if k != "XLA_FLAGS"} | {
            "JAX_PLATFORMS": "cpu", "JAX_TRACEBACK_FILTERING": "off"}
        done = subprocess.run([sys.executable, "-c", _RUN_SHOWN, row.snippet], capture_output=True, text=True,
                              env=environ, timeout=120)
        assert done.returncode == 0, (row.snippet, done.stderr[-2000:])
        exc_class, where, message = done.stdout.split("\n", 2)
        assert exc_class.rsplit(".", 1)[-1] == row.exc_class.rsplit(".", 1)[-1], row.call
        assert where == f"{row.path}:{row.lineno}", row.call
        # the message stored names jax's files from the package on, as the card shows them
        shown = message.replace(os.path.dirname(os.path.dirname(jax.__file__)) + os.sep, "")
        assert _unaddressed(shown) == _unaddressed(row.message), row.call


def _unaddressed(message: str) -> str:
    """The message with the addresses of objects it prints (`<function f at 0x7f...>`) blanked: they differ per run;
    and where a lambda was written (`<lambda> at <probe>:1`), which is wherever the snippet is run from."""
    return re.sub(r"<lambda> at \S+:\d+", "<lambda> at ...", re.sub(r"0x[0-9a-f]+", "0x...", message))


# Runs a snippet as shown; prints the exception's class, its innermost frame (jax/...:line) and message.
_RUN_SHOWN = """
import os, sys, traceback
import jax
root = os.path.dirname(os.path.dirname(os.path.realpath(jax.__file__)))
try:
    exec(compile(sys.argv[1], "<snippet>", "exec"), {})
except Exception as error:
    frame, line = list(traceback.walk_tb(error.__traceback__))[-1]
    path = os.path.relpath(os.path.realpath(frame.f_code.co_filename), root)
    sys.stdout.write(f"{type(error).__qualname__}\\n{path}:{line}\\n{error}")
else:
    sys.exit("the snippet raised nothing")
"""


@pytest.mark.slow
def test_a_limited_probe_keeps_the_shorter_call_and_a_full_one_replaces_every_row(probed, tmp_path):
    from jax_errors.reproduce.probe import store_probes

    engine, _ = probed
    before = _rows(engine)
    row = before["jax.lax.reshape(jnp.ones((3,)), -1)"]

    def hit(call):
        return {"path": row.path, "line": row.lineno, "call": call, "snippet": row.snippet, "exc_class": row.exc_class,
                "message": row.message, "frames": [], "function": row.function}

    def copied(name):
        copy_database(engine.url.database, tmp_path / name)
        return open_database(tmp_path / name)

    limited = copied("limited.db")
    store_probes(limited, row.snapshot_id, row.jax_version, [hit(row.call + " ")], replace=False)
    assert set(_rows(limited)) == set(before)  # a longer call for a stored error changes nothing
    store_probes(limited, row.snapshot_id, row.jax_version, [hit("f(-1)")], replace=False)
    assert set(_rows(limited)) == set(before) - {row.call} | {"f(-1)"}  # a shorter one replaces it alone
    full = copied("full.db")
    store_probes(full, row.snapshot_id, row.jax_version, [hit(row.call + " ")], replace=True)
    assert set(_rows(full)) == {row.call + " "}
    # ... but the rows of a function this probe could not finish stand
    unfinished = copied("unfinished.db")
    store_probes(unfinished, row.snapshot_id, row.jax_version, [], replace=True, keeping={"jax.lax.reshape"})
    assert set(_rows(unfinished)) == {call for call, r in before.items() if r.function == "jax.lax.reshape"}
    assert set(before) - set(_rows(unfinished))  # the other functions' rows went
    # a hit whose message does not fit its site's template is refused, and said so
    rejected = Counter()
    wrong = hit("g()") | {"message": "something else entirely"}
    assert store_probes(copied("wrong.db"), row.snapshot_id, row.jax_version, [wrong], replace=False,
                        rejected=rejected) == []
    assert rejected == {"message off the template": 1}


@pytest.mark.slow
def test_a_call_that_kills_the_worker_is_named_and_left_out_next_time_and_a_hang_is_a_timeout(tmp_path, monkeypatch):
    from jax_errors.reproduce.pool import WorkerPool
    from jax_errors.reproduce.probe import PROBE_MODULE, probe_on

    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).parent / "data"))  # for probe_target
    journal = str(tmp_path / "journal")

    def probed(names, timeout=60, **kwargs):
        pool = WorkerPool(jobs=1, timeout=timeout, module=PROBE_MODULE)
        return dict(pool.map(names, lambda w, name: probe_on(w, name, timeout, journal=journal, **kwargs)))

    results = probed(["probe_target.crash_on_zero", "jax.lax.reshape"])
    crashed = results["probe_target.crash_on_zero"]
    assert crashed.failure.startswith("crashed") and crashed.crashed_on == "probe_target.crash_on_zero(0)"
    assert results["jax.lax.reshape"].hits and results["jax.lax.reshape"].failure is None  # a new worker
    again = probed(["probe_target.crash_on_zero"], skip=[crashed.crashed_on])["probe_target.crash_on_zero"]
    assert again.failure is None and again.crashed_on is None and again.calls > 2 * len(POOL)
    slept = probed(["probe_target.hang_on_two"], timeout=3)["probe_target.hang_on_two"]
    assert slept.failure.startswith("timeout") and slept.crashed_on is None

