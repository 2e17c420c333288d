"""Keep what a long job loads out of the garbage collector's way.

A build loads the whole catalogue (millions of objects) and then makes many small ones. While
the heap grows, CPython's collector rescans it each time it grows by a quarter; once loaded,
each full collection rescans it again. On a refresh that was a fifth of the time. So the
collector pauses while the job loads (what it loads is data, not cyclic garbage), and what was
loaded is then frozen (`gc.freeze()`): moved to a generation the collector skips until unfrozen.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager

_depth = 0


@contextmanager
def long_lived() -> Iterator[Callable[[], None]]:
    """Pause the collector until the job calls what this yields, once its data is loaded, then freeze that data.

    Nested jobs share one freeze: the outermost unfreezes when it ends.
    """
    global _depth
    paused = gc.isenabled()
    gc.disable()
    _depth += 1

    def loaded() -> None:
        nonlocal paused
        gc.freeze()
        if paused:
            gc.enable()
            paused = False

    try:
        yield loaded
    finally:
        _depth -= 1
        if paused:
            gc.enable()
        if _depth == 0:
            gc.unfreeze()
