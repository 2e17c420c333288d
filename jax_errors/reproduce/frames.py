"""Traceback frames, and those inside the jax package: where jax raised.

Standard library only: the reproduction worker and the pytest plugin import it in the processes
that run jax.
"""

from __future__ import annotations

import os
import traceback
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import TracebackType
from typing import Any

from jax_errors.crawler.sources import PACKAGE_DIR


@dataclass(frozen=True)
class Frame:
    """One traceback frame: file (absolute, or repo-relative for a jax frame), line and function name."""

    file: str
    line: int
    function: str

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line, "function": self.function}


def traceback_frames(tb: TracebackType | None) -> list[Frame]:
    """The frames of a traceback, outermost first."""
    return [Frame(frame.f_code.co_filename, line or 0, frame.f_code.co_name) for frame, line in traceback.walk_tb(tb)]


def jax_frames(frames: Iterable[Frame], jax_dir: str | Path, *, limit: int | None = None) -> tuple[Frame, ...]:
    """The frames inside the jax package at `jax_dir`, as repo paths (`jax/_src/core.py`), innermost last.

    Parameters:
        limit: keep only this many of the innermost.
    """
    found = []
    for frame in frames:
        path = jax_path(frame.file, jax_dir)
        if path is not None:
            found.append(Frame(path, frame.line, frame.function))
    return tuple(found[-limit:] if limit else found)


def jax_path(file: str, jax_dir: str | Path) -> str | None:
    """`jax/...` for a file inside the jax package at `jax_dir` (links resolved), else None."""
    root = _real_folder(str(jax_dir))
    real = os.path.realpath(file)
    if not real.startswith(root):
        return None
    return f"{PACKAGE_DIR}/{real[len(root):].replace(os.sep, '/')}"


@lru_cache(maxsize=8)
def _real_folder(folder: str) -> str:
    return os.path.realpath(folder) + os.sep
