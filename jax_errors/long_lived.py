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
_frozen_before = False  # something else froze objects before the outermost job: they stay frozen


@contextmanager
def long_lived() -> Iterator[Callable[[], None]]:
    """Pause the collector until the job calls what this yields, once its data is loaded, then freeze that data.

    Nested jobs share one freeze: the outermost unfreezes when it ends, unless objects were frozen before
    it began (by a program that freezes before forking, say): unfreezing would release those too.
    """
    global _depth, _frozen_before
    reenable = gc.isenabled()
    gc.disable()
    if _depth == 0:
        _frozen_before = gc.get_freeze_count() > 0
    _depth += 1

    def loaded() -> None:
        nonlocal reenable
        gc.freeze()
        if reenable:
            gc.enable()
            reenable = False

    try:
        yield loaded
    finally:
        _depth -= 1
        if reenable:
            gc.enable()
        if _depth == 0 and not _frozen_before:
            gc.unfreeze()
