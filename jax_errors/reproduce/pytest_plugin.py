"""A pytest plugin (`-p jax_errors.reproduce.pytest_plugin`) that records what JAX's tests' asserts catch.

It wraps the `__exit__` of unittest's, absltest's and pytest's assert-raises context managers (the
callable forms use them too): for every exception one catches, it writes a JSON line with the test's
node id, the line of the test file holding the assert, the exception, the innermost traceback frame
inside the installed `jax` package, and whether the assert passed. It also keeps only the tests
that the runner selected, and writes each test's outcome. Of jax-errors it imports only modules
that need nothing beyond the standard library, as the reproduction worker does.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from pathlib import Path
from typing import IO, Any

from jax_errors.crawler.installed import installed_jax_dir
from jax_errors.exceptions import JaxNotInstalledError
from jax_errors.reproduce.exception_text import class_name, message_of
from jax_errors.reproduce.frames import jax_frames, traceback_frames

OUT_ENV = "JAX_ERRORS_TRIGGERS_OUT"
SELECT_ENV = "JAX_ERRORS_TRIGGERS_SELECT"
ROOT_ENV = "JAX_ERRORS_TRIGGERS_ROOT"
CASES_ENV = "JAX_ERRORS_TRIGGERS_CASES"
OVERLAY_ENV = "JAX_ERRORS_TRIGGERS_OVERLAY"
MAX_MESSAGE = 2000
_WRAPPED = "_jax_errors_wrapped"
# absl's parameterized and jtu's sample_product name generated tests `testFoo0`, `testFoo_case`.
_GENERATED_SUFFIX = tuple("0123456789_([")


class _State:
    out: IO[str] | None = None
    root: str = ""
    jax_dir: Path | None = None
    nodeid: str | None = None
    wanted: dict[str | None, set[str]] | None = None
    cases: int = 0  # at most this many generated cases of one test method; 0: all


def pytest_configure(config) -> None:
    out = os.environ.get(OUT_ENV)
    if not out:
        return
    _State.out = open(out, "a", encoding="utf-8", buffering=1)
    _State.root = str(Path(os.environ.get(ROOT_ENV, os.getcwd())).resolve()) + os.sep
    _State.jax_dir = _jax_dir()
    _State.wanted = _read_selection(os.environ.get(SELECT_ENV))
    _State.cases = int(os.environ.get(CASES_ENV) or 0)
    if os.environ.get(OVERLAY_ENV):
        add_overlay(Path(os.environ[OVERLAY_ENV]))
    for cls in _contexts():
        _wrap(cls)


def add_overlay(overlay: Path) -> None:
    """Make the test-only modules that the wheel leaves out (`jax._src.hypothesis_test_util`) importable.

    They come from the same commit as the tests; each folder of the overlay is appended to the
    `__path__` of the installed package it belongs to, so the installed modules still win.
    """
    for folder in sorted({p.parent for p in overlay.rglob("*.py")}):
        package = ".".join(folder.relative_to(overlay).parts)
        try:
            module = importlib.import_module(package)
        except Exception:  # noqa: BLE001 - a package that cannot import here has tests that cannot run
            continue
        if hasattr(module, "__path__") and str(folder) not in module.__path__:
            module.__path__.append(str(folder))


def _jax_dir() -> Path | None:
    try:
        return installed_jax_dir()
    except JaxNotInstalledError:
        return None


def _read_selection(path: str | None) -> dict[str | None, set[str]] | None:
    if not path:
        return None
    wanted: dict[str | None, set[str]] = {}
    for owner, method in json.loads(Path(path).read_text())["tests"]:
        wanted.setdefault(owner, set()).add(method)
    return wanted


def _contexts() -> list[type]:
    import unittest.case

    found = [unittest.case._AssertRaisesContext]
    try:
        from absl.testing import absltest
        found.append(absltest.TestCase._AssertRaisesContext)
    except ImportError:
        pass
    for module, name in (("_pytest.raises", "RaisesExc"), ("_pytest.python_api", "RaisesContext")):
        try:
            found.append(getattr(importlib.import_module(module), name))
        except (ImportError, AttributeError):
            continue
    return found


def _wrap(cls: type) -> None:
    original = cls.__exit__
    if getattr(original, _WRAPPED, False):
        return

    def __exit__(self, exc_type, exc_value, tb):
        try:
            result = original(self, exc_type, exc_value, tb)
        except BaseException:
            _record(exc_value, tb, matched=False)  # the assert failed: wrong message
            raise
        _record(exc_value, tb, matched=bool(result))  # False: the wrong class, it propagates
        return result

    setattr(__exit__, _WRAPPED, True)
    cls.__exit__ = __exit__


def _record(exc_value: BaseException | None, tb, *, matched: bool) -> None:
    if exc_value is None or _State.out is None:
        return
    test_path, test_line = _assert_location()
    inner = jax_frames(traceback_frames(tb), _State.jax_dir, limit=1) if _State.jax_dir else ()
    jax_path, jax_line = (inner[0].file, inner[0].line) if inner else (None, None)
    _write({
        "kind": "caught", "nodeid": _State.nodeid, "test_path": test_path, "test_line": test_line,
        "exc_class": class_name(type(exc_value)), "message": message_of(exc_value)[:MAX_MESSAGE],
        "jax_path": jax_path, "jax_line": jax_line, "matched": matched,
    })


def _assert_location() -> tuple[str | None, int | None]:
    """The innermost frame of a file under the tests' root: the line holding the assert."""
    frame = sys._getframe(2)
    while frame is not None:
        filename = frame.f_code.co_filename
        if filename.startswith(_State.root):
            return filename[len(_State.root):], frame.f_lineno
        frame = frame.f_back
    return None, None


def _write(record: dict[str, Any]) -> None:
    _State.out.write(json.dumps(record) + "\n")


def pytest_collection_modifyitems(session, config, items) -> None:
    if _State.wanted is None:
        return
    by_test: dict[tuple, list] = {}
    dropped = []
    for item in items:
        method = _wanted_method(item, _State.wanted)
        if method is None:
            dropped.append(item)
        else:
            by_test.setdefault((getattr(item, "cls", None), method), []).append(item)
    kept = []
    for cases in by_test.values():
        chosen = _spread(cases, _State.cases)
        kept.extend(chosen)
        ids = {id(item) for item in chosen}
        dropped.extend(item for item in cases if id(item) not in ids)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        order = {id(item): i for i, item in enumerate(items)}
        items[:] = sorted(kept, key=lambda item: order[id(item)])


def _spread(cases: list, limit: int) -> list:
    """At most `limit` of a test's generated cases, spread over the whole list (the first and last kept)."""
    if limit <= 0 or len(cases) <= limit:
        return cases
    if limit == 1:
        return cases[:1]
    step = (len(cases) - 1) / (limit - 1)
    return [cases[round(i * step)] for i in range(limit)]


def _wanted_method(item, wanted: dict[str | None, set[str]]) -> str | None:
    cls = getattr(item, "cls", None)
    owners = [c.__name__ for c in cls.__mro__] if cls is not None else [None]
    name = getattr(item, "originalname", None) or item.name
    for owner in owners:
        for method in wanted.get(owner, ()):
            if name == method or name.startswith(method) and name[len(method)] in _GENERATED_SUFFIX:
                return method
    return None


def pytest_runtest_setup(item) -> None:
    _State.nodeid = item.nodeid


def pytest_runtest_logreport(report) -> None:
    if _State.out is None:
        return
    if report.when == "call" or report.when == "setup" and report.outcome != "passed":
        _write({"kind": "test", "nodeid": report.nodeid, "outcome": report.outcome})
