"""A probe worker: `python -m jax_errors.reproduce.probe_worker`, started by `probe.probe_jax`.

It imports jax once and says `{"ready": ...}` (the pool's handshake), then answers JSON requests
a line each on stdin:
- `{"list": [module, ...]}`: `{"functions": [name, ...]}`, the public functions and classes of those
  modules that are defined inside jax, sorted, each once;
- `{"probe": name}`: makes that function's calls (`probe_calls.calls`), each under a deadline, and
  answers `{"calls": n, "hits": [...]}`: for each place inside jax that raised, the shortest call
  that made it raise there, with its class, message and jax frames.
What the calls print goes to stderr; they run in the folder a request names (`"folder"`: the run's
temporary folder, removed at its end).
"""

from __future__ import annotations

import functools
import importlib
import inspect
import json
import os
import signal
import sys
import warnings
from collections.abc import Callable
from types import ModuleType
from typing import Any

from jax_errors.reproduce.exception_text import class_name, message_of
from jax_errors.reproduce.frames import Frame, jax_frames, traceback_frames
from jax_errors.reproduce.probe_calls import (
    DEFINITIONS,
    INDEXING,
    RECEIVERS,
    Call,
    called_result,
    make_calls,
    receiver_of,
    shortness,
)
from jax_errors.reproduce.worker import (
    ENVIRONMENT,
    _block,
    _config_values,
    _restore_config,
    _send,
    _take_protocol_pipes,
)

CALL_TIMEOUT = float(os.environ.get("JAX_ERRORS_PROBE_CALL_TIMEOUT", "10"))
# Past this data segment (MiB) after a function, the worker asks to be replaced: each function's calls
# compile their own computations and jax keeps them (about 10 MiB a function), and near the pool's
# RLIMIT_DATA every allocation would fail, in C, with no raise site to attribute.
MEMORY_SOFT_MB = int(os.environ.get("JAX_ERRORS_PROBE_MEMORY_MB", "2048"))
# Functions one worker probes before it asks to be replaced: a call can leave state behind that
# changes what later calls raise (jax's own globals, beyond its config, which is restored), and a
# fresh worker bounds how far that reaches.
FUNCTIONS_PER_WORKER = int(os.environ.get("JAX_ERRORS_PROBE_FUNCTIONS_PER_WORKER", "25"))
MAX_MESSAGE = 4000
MAX_FRAMES = 30
# What a probe must not call: it would start servers, wait on other processes, write outside the
# temporary folder, or change what later calls see (a global mesh, the pytree registry, a deleted buffer).
SKIPPED = (
    "jax.distributed.", "jax.profiler.", "jax.config", "jax.clear_caches", "jax.clear_backends",
    "jax.debug.breakpoint", "jax.monitoring.", "jax.experimental.compilation_cache.", "jax.update_",
    "jax.experimental.multihost_utils.", "jax.experimental.profiler.", "jax.numpy.set_printoptions",
    "jax.numpy.printoptions", "jax.experimental.enable_x64", "jax.experimental.disable_x64",
    "jax.enable_", "jax.default_", "jax.numpy_", "jax.transfer_guard", "jax.log_compiles",
    "jax.explain_cache_misses", "jax.check_tracer_leaks", "jax.checking_leaks", "jax.debug_",
    "jax.disable_jit", "jax.experimental.key_reuse.", "jax.sharding.use_mesh", "jax.set_mesh",
    "jax.sharding.set_mesh", "jax.use_abstract_mesh", "jax.sharding.use_abstract_mesh", "jax.tree_util.register_",
    "jax.export.register_", "jax.experimental.pallas.enable_", "jax.Array.delete", "jax.Array.unsafe_",
)


class _Deadline(BaseException):
    """A call ran past CALL_TIMEOUT (a BaseException: jax's `except Exception` must not catch or rewrap it)."""


class _Skipped(Exception):
    """A call not made: it killed a worker before."""


def main() -> None:
    replies, requests = _take_protocol_pipes()
    for name, value in ENVIRONMENT.items():
        os.environ.setdefault(name, value)
    warnings.simplefilter("ignore")
    import jax  # after the environment: jax reads it at import

    prober = Prober(os.path.dirname(jax.__file__), frozenset(sys.modules))
    signal.signal(signal.SIGALRM, _on_alarm)
    _send(replies, {"ready": True, "jax_version": jax.__version__, "pid": os.getpid()})
    for line in requests:
        if not line.strip():
            continue
        request = json.loads(line)
        if request.get("folder"):  # the run's temporary folder: what calls write lands there, and goes with it
            os.chdir(request["folder"])
        if "list" in request:
            _send(replies, {"phase": "list", "functions": public_functions(request["list"])})
        else:
            try:
                reply = prober.probe(request["probe"], skip=frozenset(request.get("skip", ())),
                                     journal=request.get("journal"))
            except Exception as error:  # noqa: BLE001 - the probe's own failure, reported for this function
                reply = {"phase": "probe", "function": request["probe"], "calls": 0, "hits": [],
                         "error": f"{class_name(type(error))}: {message_of(error)}"[:MAX_MESSAGE]}
            _send(replies, reply)


def _on_alarm(_signum, _frame) -> None:
    raise _Deadline()


def public_functions(module_names: list[str]) -> list[str]:
    """The public callables of these modules that jax defines (not numpy's or the standard library's), sorted.

    A skipped function stays skipped under any other name it is exported as.
    """
    found: dict[Any, str] = {}
    skipped: set[int] = set()
    named: list[tuple[str, Any]] = []
    for module_name in module_names:
        if f"{module_name}." in RECEIVERS:
            try:
                methods = receiver_methods(f"{module_name}.")
            except Exception:  # noqa: BLE001 - a receiver this jax does not have (no jax.new_ref before 0.7)
                continue
            found.update((name, name) for name in methods if not name.startswith(SKIPPED))
            continue
        try:
            module = importlib.import_module(module_name)
        except Exception:  # noqa: BLE001 - an optional module whose dependency is missing
            continue
        for name in getattr(module, "__all__", None) or dir(module):
            if not name.startswith("_"):
                value = getattr(module, name, None)
                named.append((f"{module_name}.{name}", value))
                if f"{module_name}.{name}".startswith(SKIPPED):
                    skipped.add(id(value))
    for qualified, value in named:
        if _probed(value) and id(value) not in skipped and id(value) not in found:
            found[id(value)] = qualified
    return sorted(found.values())


def receiver_methods(prefix: str) -> list[str]:
    """The public methods and properties of a receiver (`jax.Array.`), and its indexing, by their names."""
    receiver = _receiver(prefix)
    names = [name for name in dir(receiver) if not name.startswith("_") and name not in INDEXING[prefix]
             and (_is_property(receiver, name) or callable(getattr(receiver, name, None)))]
    return [f"{prefix}{name}" for name in (*INDEXING[prefix], *names)]


def _receiver(prefix: str) -> Any:
    """The object a receiver's methods are called on (RECEIVERS), made anew."""
    return eval(RECEIVERS[prefix], _namespace())  # noqa: S307 - our own literal


def _is_property(receiver: Any, name: str) -> bool:
    return isinstance(inspect.getattr_static(type(receiver), name, None), property)


def _too_big() -> bool:
    """Whether this process's data segment grew past MEMORY_SOFT_MB (Linux; elsewhere never)."""
    try:
        with open("/proc/self/status") as status:
            data_kb = next(int(line.split()[1]) for line in status if line.startswith("VmData:"))
    except (OSError, ValueError, StopIteration):
        return False
    return data_kb // 1024 > MEMORY_SOFT_MB


def _deleted(value: Any) -> bool:
    is_deleted = getattr(value, "is_deleted", None)
    try:
        return bool(is_deleted()) if callable(is_deleted) else False
    except Exception:  # noqa: BLE001 - a value whose check fails is made again
        return True


def _indexed(*_args: Any) -> None:
    """Stands for indexing, which has no function of its own to call."""


def _namespace() -> dict[str, Any]:
    """What a call's text is evaluated in: the names its snippet imports, and those it defines (DEFINITIONS)."""
    namespace = _imported()
    namespace.update((name, _defined(name)) for name in DEFINITIONS)
    return namespace


def _imported() -> dict[str, Any]:
    import jax
    import jax.experimental.sparse  # the pool's sparse values and BCOO's methods name it
    import jax.numpy as jnp
    import numpy as np

    return {"jax": jax, "jnp": jnp, "np": np}


@functools.cache
def _defined(name: str) -> Any:
    """What a name of DEFINITIONS stands for, made once: the same mesh for every call."""
    return eval(DEFINITIONS[name], _imported())  # noqa: S307 - our own literal


def _probed(value: Any) -> bool:
    if isinstance(value, ModuleType) or not callable(value):
        return False
    if inspect.isclass(value) and issubclass(value, BaseException):
        return False
    return (getattr(value, "__module__", None) or "").startswith("jax")


class Prober:
    """Makes one function's calls and keeps, per raising place inside jax, the shortest call.

    A call runs as its text reads, each value and the function bound to a name (`Call.render`): the
    text is evaluated once per function, so that its calls share them and jax's caches hold. A
    value a call deleted (an array it donated) is evaluated again before the next call uses it.
    """

    def __init__(self, jax_dir: str, imported: frozenset[str]) -> None:
        self.jax_dir = jax_dir
        self.imported = imported  # what `import jax` imports by itself: a snippet need not import it
        # Where packages are installed here, longest first: messages naming files there are published.
        self.install_folders = sorted({os.path.dirname(os.path.realpath(jax_dir)) + os.sep,
                                       os.path.dirname(jax_dir) + os.sep, sys.prefix + os.sep,
                                       os.path.realpath(sys.prefix) + os.sep}, key=len, reverse=True)
        self.namespace = _namespace()
        self.bound: dict[str, str] = {}  # value text -> the name it is bound to in `namespace`
        self.probed = 0  # functions probed so far

    def probe(self, name: str, *, skip: frozenset[str] = frozenset(), journal: str | None = None) -> dict[str, Any]:
        """Make the calls of `name`, but those in `skip` (calls that killed a worker before).

        `journal`: a file each call's text is written to before it is made, so that the one that
        kills the process can be told and skipped on the next try.
        """
        function = self._resolve(name)
        hits: dict[tuple[str, int], dict[str, Any]] = {}
        saved = _config_values()
        self.namespace, self.bound = _namespace(), {}  # fresh values for every function
        if function is not None and receiver_of(name) is None:
            self.namespace["_f"], self.bound[name] = function, "_f"  # its module need not be imported by name
        self.skip = skip
        self.journal = os.open(journal, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600) if journal else None
        try:
            made = make_calls(name, function, lambda call: self._make(call, hits) is None)
        finally:
            _restore_config(saved)
            if self.journal is not None:
                os.close(self.journal)
        self.probed += 1
        return {"phase": "probe", "function": name, "calls": made,
                "tainted": self.probed >= FUNCTIONS_PER_WORKER or _too_big(),
                "hits": sorted(hits.values(), key=lambda h: (h["path"], h["line"]))}

    def _resolve(self, name: str) -> Callable | None:
        """The function `name` calls (its signature says what to pass); None for a property, which is read."""
        prefix = receiver_of(name)
        if prefix is not None:
            receiver = _receiver(prefix)
            member = name.removeprefix(prefix)
            if member in INDEXING[prefix]:
                return _indexed  # make_calls writes indexing itself
            return None if _is_property(receiver, member) else getattr(receiver, member)
        module_name, _, attribute = name.rpartition(".")
        return getattr(importlib.import_module(module_name), attribute)

    def _bind(self, text: str) -> str:
        """The name `text`'s value is bound to (evaluated now if it was not, or was deleted since)."""
        name = self.bound.get(text)
        if name is not None and not _deleted(self.namespace[name]):
            return name
        try:
            value = eval(text, _namespace())  # noqa: S307 - our own literals
        except Exception:  # noqa: BLE001 - not a value (`v`, the parameter of a context's lambda)
            return text
        name = name or f"_{len(self.bound)}"
        self.bound[text] = name
        self.namespace[name] = value
        return name

    def _make(self, call: Call, hits: dict) -> BaseException | None:
        """Make one call (and, if it returns a function, call that); what it raised, kept in `hits`."""
        result, error = self._run(call)
        if error is not None:
            self._keep(call, error, hits)
            return error
        if callable(result) and not inspect.isclass(result) and call.then is None and not call.attribute:
            for then in called_result(call):
                _, later = self._run(then)
                if later is not None:
                    self._keep(then, later, hits)
        return None

    def _run(self, call: Call) -> tuple[Any, BaseException | None]:
        text = call.text
        if text in self.skip:
            return None, _Skipped()
        if self.journal is not None:
            os.ftruncate(self.journal, 0)
            os.pwrite(self.journal, text.encode(), 0)
        code = compile(call.render(self._bind), "<probe>", "exec" if call.statement else "eval")
        signal.setitimer(signal.ITIMER_REAL, CALL_TIMEOUT)
        try:
            result = eval(code, self.namespace)  # noqa: S307 - a call this module wrote
            if not callable(result):
                _block(result)
            return result, None
        except _Deadline as late:
            return None, late
        except Exception as error:  # noqa: BLE001 - what the probe is after
            return None, error
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)

    def _keep(self, call: Call, error: BaseException, hits: dict) -> None:
        if isinstance(error, (_Deadline, _Skipped)):
            return
        frames = traceback_frames(error.__traceback__)
        # Only an error whose innermost frame is jax's own: a raise statement of jax ran there (not
        # numpy's, nor a C function's called from jax).
        if not frames or not jax_frames(frames[-1:], self.jax_dir):
            return
        inside = jax_frames(frames, self.jax_dir, limit=MAX_FRAMES)
        inner: Frame = inside[-1]
        exc_class = class_name(type(error))
        key = (inner.file, inner.line, exc_class)  # another class at the same line must not hide the site's
        text = call.text
        kept = hits.get(key)
        if kept is not None and shortness(kept["call"]) <= shortness(text):
            return
        hits[key] = {
            "path": inner.file, "line": inner.line, "call": text, "snippet": call.snippet(self.imported),
            "exc_class": exc_class, "message": self._portable(message_of(error))[:MAX_MESSAGE],
            "frames": [frame.to_json() for frame in inside],
        }

    def _portable(self, message: str) -> str:
        """The message without this machine's install folders: `.../site-packages/jax/_src/x.py` as `jax/_src/x.py`."""
        for folder in self.install_folders:
            message = message.replace(folder, "")
        return message


if __name__ == "__main__":
    sys.exit(main())
