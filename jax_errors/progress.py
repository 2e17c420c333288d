"""How long jobs report progress: a callback every stage accepts."""

from __future__ import annotations

from collections.abc import Callable

# Called as progress(done, total, what) while a crawl, a reproduction or a build runs.
Progress = Callable[[int, int, str], None]
