"""How long jobs report progress: a callback every stage accepts, and its plain form for a log."""

from __future__ import annotations

import time
from collections.abc import Callable

# Called as progress(done, total, what) while a crawl, a reproduction or a build runs.
Progress = Callable[[int, int, str], None]

# How often a job whose output is no terminal (a log, CI) says how far it is, in seconds.
LINE_EVERY_SECONDS = 10.0


class LineProgress:
    """Progress as lines of text, for output that is no terminal, where a redrawn bar shows nothing: the job's
    description, done of total, the time since it began and what it is at, at most once every `every` seconds,
    and once when a stage reaches its total (a stage after it, of the same total, once more).

    Parameters:
        write: takes each line.
        clock: seconds, monotonic (`time.monotonic`).
    """

    def __init__(self, description: str, write: Callable[[str], None], *, every: float = LINE_EVERY_SECONDS,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.description, self.write, self.every, self.clock = description, write, every, clock
        self.began = self.said = clock()
        self.finished: int | None = None  # the total of the stage last said to be done

    def __call__(self, done: int, total: int, what: str) -> None:
        now = self.clock()
        complete = total > 0 and done >= total
        if not complete:
            self.finished = None  # a stage under way: the next to reach its total is said, whatever the total
        elif self.finished == total:
            return
        if complete or now - self.said >= self.every:
            self.said = now
            if complete:
                self.finished = total
            elapsed = int(now - self.began)
            line = f"{self.description}: {done}/{total or '?'} ({elapsed // 60}:{elapsed % 60:02d})"
            self.write(f"{line} {what[-60:]}".rstrip())
