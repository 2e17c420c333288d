"""A reproduction worker: `python -m jax_errors.reproduce.worker`, started by the harness's pool.

It imports jax once, says `{"ready": ...}`, then reads one JSON request a line on stdin
(`{"name", "path", "expected"}`) and answers each with two JSON lines: a `trigger` reply (what
`trigger()` raised, with its traceback) and a `fixed` reply (whether `fixed()` ran clean).
The case's own prints go to stderr, so they cannot corrupt the protocol.
"""

from __future__ import annotations

import builtins
import faulthandler
import importlib
import json
import os
import sys
import time
import types
from typing import IO, Any

from jax_errors.reproduce.exception_text import class_name, message_of
from jax_errors.reproduce.frames import traceback_frames

# The harness sets these in the worker's environment; the defaults let it run by hand too.
ENVIRONMENT = {
    "XLA_FLAGS": "--xla_force_host_platform_device_count=8",
    "JAX_PLATFORMS": "cpu",
    "JAX_TRACEBACK_FILTERING": "off",
}
MAX_FRAMES = 200
MAX_MESSAGE = 20_000


def main() -> None:
    replies, requests = _take_protocol_pipes()
    faulthandler.enable()  # a segfaulting case leaves its Python traceback in the worker's stderr
    for name, value in ENVIRONMENT.items():
        os.environ.setdefault(name, value)
    import jax  # after the environment: jax reads it at import

    watched = jax_attributes()
    _send(replies, {"ready": True, "jax_version": jax.__version__, "pid": os.getpid()})
    for line in requests:
        if line.strip():
            run_request(json.loads(line), lambda message: _send(replies, message), watched=watched)


def _take_protocol_pipes() -> tuple[IO[str], IO[str]]:
    """Keep stdin and stdout for the protocol; the case sees /dev/null and stderr instead."""
    replies = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    requests = os.fdopen(os.dup(0), "r", encoding="utf-8")
    os.dup2(2, 1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    return replies, requests


def _send(stream: IO[str], message: dict[str, Any]) -> None:
    stream.write(json.dumps(message) + "\n")
    stream.flush()


def run_request(request: dict[str, Any], send, *, watched: dict[tuple[str, str], int] | None = None) -> None:
    """Run one case: exec its file into a fresh module, call `trigger()`, then `fixed()`.

    The `fixed` reply says whether the case left jax changed (`tainted`): a module attribute of
    `watched` rebound, say by a monkeypatch. The pool then retires this worker, so the change
    cannot reach the next case.
    """
    module = types.ModuleType(f"jax_errors_case_{request['name']}")
    module.__file__ = request["path"]
    # Registered while it runs: dataclasses, pickle and typing look classes' modules up there.
    sys.modules[module.__name__] = module
    saved = _config_values()
    held: list[dict[str, Any]] = []
    try:
        _run_module(module, request, lambda message: held.append(message) if message["phase"] == "fixed"
                    else send(message))
    finally:
        del sys.modules[module.__name__]
        _restore_config(saved)
        tainted = watched is not None and jax_attributes(only=watched) != watched
        for message in held:
            send({**message, "tainted": tainted})


def jax_attributes(only: dict[tuple[str, str], int] | None = None) -> dict[tuple[str, str], int]:
    """What each public function or class of the imported jax modules (and numpy) is bound to, by object id.

    Private names and plain values are left out: jax sets its own caches and flags on first use
    (`xla_bridge._default_backend`); a case that rebinds `jnp.sum` is what must not leak. With
    `only`, just those (module, name) pairs, as they are now (a missing one maps to -1).
    """
    if only is not None:
        return {(module, name): id(getattr(sys.modules.get(module), name, _MISSING)) if module in sys.modules
                else -1 for module, name in only}
    found = {}
    for module_name, module in list(sys.modules.items()):
        if module is not None and (module_name == "numpy" or module_name == "jax" or module_name.startswith("jax.")):
            for name, value in list(vars(module).items()):
                if not name.startswith("_") and callable(value):
                    found[(module_name, name)] = id(value)
    return found


_MISSING = object()


def _run_module(module: types.ModuleType, request: dict[str, Any], send) -> None:
    started = time.perf_counter()
    try:
        with open(request["path"], encoding="utf-8") as file:
            exec(compile(file.read(), request["path"], "exec"), module.__dict__)
    except BaseException as error:  # noqa: BLE001 - a broken case is reported, never fatal
        send(_raised(error, request["expected"], time.perf_counter() - started) | {"loaded": False})
        send({"phase": "fixed", "ok": False, "error": "the case file did not load", "seconds": 0.0})
        return
    send(_call_trigger(module.trigger, request["expected"]))
    send(_call_fixed(module.fixed))


def _call_trigger(trigger, expected: str) -> dict[str, Any]:
    started = time.perf_counter()
    try:
        _block(trigger())
    except BaseException as error:  # noqa: BLE001
        return _raised(error, expected, time.perf_counter() - started)
    return {"phase": "trigger", "raised": False, "seconds": time.perf_counter() - started}


def _call_fixed(fixed) -> dict[str, Any]:
    started = time.perf_counter()
    try:
        _block(fixed())
    except BaseException as error:  # noqa: BLE001
        error_text = f"{class_name(type(error))}: {message_of(error)}"
        return {"phase": "fixed", "ok": False, "error": error_text[:MAX_MESSAGE],
                "seconds": time.perf_counter() - started}
    return {"phase": "fixed", "ok": True, "seconds": time.perf_counter() - started}


def _config_values() -> dict[str, Any]:
    import jax

    return dict(jax.config.values)


def _restore_config(saved: dict[str, Any]) -> None:
    """Undo a case's `jax.config.update(...)`, so it cannot change the cases run after it."""
    import jax

    for name, value in _config_values().items():
        if name in saved and saved[name] != value:
            try:
                jax.config.update(name, saved[name])
            except Exception:  # noqa: BLE001 - a flag that refuses its old value stays as it is
                pass


def _block(result: Any) -> None:
    """Wait for asynchronously dispatched work, so its errors surface inside the case."""
    import jax

    jax.block_until_ready(result)


def _raised(error: BaseException, expected: str, seconds: float) -> dict[str, Any]:
    matches, problem = _is_expected(error, expected)
    frames = traceback_frames(error.__traceback__)[-MAX_FRAMES:]
    return {
        "phase": "trigger",
        "raised": True,
        "exc_class": class_name(type(error)),
        "message": message_of(error)[:MAX_MESSAGE],
        "class_matches": matches,
        "frames": [frame.to_json() for frame in frames],
        "seconds": seconds,
        "detail": problem,
        "out_of_memory": isinstance(error, MemoryError),  # numpy's is a subclass of its own
    }


def _is_expected(error: BaseException, expected: str) -> tuple[bool, str | None]:
    """Whether `error` is exactly of the class EXPECTED names (a subclass is a different error)."""
    module, _, name = expected.rpartition(".")
    try:
        cls = getattr(importlib.import_module(module) if module else builtins, name)
    except (ImportError, AttributeError) as problem:
        return False, f"EXPECTED {expected!r} does not resolve: {problem}"
    return type(error) is cls, None


if __name__ == "__main__":
    sys.exit(main())
