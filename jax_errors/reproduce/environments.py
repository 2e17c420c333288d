"""One Python environment per jax release, made once with venv and pip, for running cases on that release.

`reproduce --jax 0.11.2` needs jax and the matching jaxlib of that release, which the project's own
environment cannot hold beside its pinned one. Each release gets `$JAX_ERRORS_CACHE/envs/jax-X.Y.Z`:
a venv of this interpreter with `jax==X.Y.Z jaxlib==X.Y.Z` installed by pip, marked complete only
once pip succeeded (a half-made one is made again, a failed one removed). The harness's worker
needs nothing but the standard library and the `jax_errors` package, which goes on the worker's
`PYTHONPATH` from a folder holding only a link to it, so the environment's own jax is imported.
"""

from __future__ import annotations

import re
import shutil
import sys
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import jax_errors
from jax_errors.cache import cache_folder
from jax_errors.crawler.sources import PACKAGE_DIR
from jax_errors.exceptions import WorkerError
from jax_errors.reproduce.sandbox import tool_failure

COMPLETE = ".complete"
TEST_TOOLS_COMPLETE = ".test-tools"
INSTALL_TIMEOUT = 1800
# What running JAX's own tests needs beyond jax (`triggers confirm`): pinned as in the project's `dev` extra.
TEST_TOOLS = ("pytest", "pytest-timeout", "absl-py", "hypothesis")


def cache_dir() -> Path:
    return cache_folder("envs")


@dataclass(frozen=True)
class JaxEnvironment:
    """A Python environment with one jax release installed."""

    version: str
    root: Path

    @property
    def python(self) -> Path:
        return self.root / "bin" / "python"

    @property
    def jax_dir(self) -> Path:
        """The environment's installed `jax/` package."""
        found = sorted(self.root.glob(f"lib/python*/site-packages/{PACKAGE_DIR}"))
        if not found:
            raise WorkerError(f"the environment {self.root} has no installed jax")
        return found[0]

    @property
    def harness_path(self) -> Path:
        """A folder holding only the `jax_errors` package: what the worker imports besides jax."""
        return self.root / "harness"


def ensure_environment(version: str, *, cache: Path | None = None) -> JaxEnvironment:
    """The environment of jax `version`, made the first time it is asked for.

    Raises:
        WorkerError: pip cannot install that release here (unknown, or no jaxlib for this Python).
    """
    cache = cache or cache_dir()
    target = cache / f"jax-{version}"
    environment = JaxEnvironment(version, target)
    if (target / COMPLETE).exists():
        return environment
    shutil.rmtree(target, ignore_errors=True)  # a half-made one, from a run cut short
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        _run([sys.executable, "-m", "venv", str(target)], f"cannot make an environment for jax {version}")
        _run([str(environment.python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
              f"jax=={version}", f"jaxlib=={version}"],
             f"cannot install jax {version} and jaxlib {version} for Python {sys.version_info.major}."
             f"{sys.version_info.minor}")
    except BaseException:
        shutil.rmtree(target, ignore_errors=True)
        raise
    _link_harness(environment)
    (target / COMPLETE).touch()
    return environment


def ensure_test_tools(environment: JaxEnvironment) -> JaxEnvironment:
    """Install into `environment`, once, what JAX's tests and the trigger plugin need (`TEST_TOOLS`).

    Raises:
        WorkerError: pip cannot install them.
    """
    marker = environment.root / TEST_TOOLS_COMPLETE
    if not marker.exists():
        _run([str(environment.python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
              *test_tool_pins()], f"cannot install the test tools into the environment of jax {environment.version}")
        marker.touch()
    return environment


def test_tool_pins() -> list[str]:
    """The `dev` extra's pins of `TEST_TOOLS` (`pytest==9.2.0`), read from this package's metadata."""
    pins = {}
    for requirement in metadata.requires("jax-errors") or ():
        spec, _, marker = requirement.partition(";")
        name = re.split(r"[=<>!~\[ ]", spec.strip(), maxsplit=1)[0].lower()
        if name in TEST_TOOLS and "dev" in marker:
            pins[name] = spec.strip()
    return [pins.get(name, name) for name in TEST_TOOLS]


def _link_harness(environment: JaxEnvironment) -> None:
    environment.harness_path.mkdir(exist_ok=True)
    link = environment.harness_path / "jax_errors"
    if not link.exists():
        link.symlink_to(Path(jax_errors.__file__).resolve().parent, target_is_directory=True)


def _run(command: list[str], failure: str) -> None:
    if (reason := tool_failure(command, INSTALL_TIMEOUT)) is not None:
        raise WorkerError(f"{failure}: {reason}")
