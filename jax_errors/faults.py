"""Named stages where a test can stop or kill a jax-errors process, to check what an interruption leaves.

`JAX_ERRORS_FAULT=crawl:writing` makes the process SIGKILL itself the first time it reaches the
stage `crawl:writing`; `crawl:writing@2` the second time; `crawl:writing:stop` SIGSTOPs it there
instead (a test then does what it wants beside the stopped process, and sends SIGCONT). Unset,
`checkpoint` does nothing. The stages:

- `crawl:parsed` — a snapshot's new blobs are parsed; nothing is written yet.
- `crawl:writing` — its rows are written, its transaction (holding the write lock) not committed.
- `crawl:committed` — the snapshot is stored.
- `reproduce:recording` — a case's row is written, its transaction not committed.
- `site:write` — the site's next file is about to be written.
- `site:manifest` — every file is written; the manifest is not.
- `search:source` — the next document Pagefind indexes is about to be written.
- `search:index` — Pagefind is about to index the site.
"""

from __future__ import annotations

import os
import signal
from collections import Counter

FAULT_ENV = "JAX_ERRORS_FAULT"
_reached: Counter[str] = Counter()


def checkpoint(stage: str) -> None:
    """Stop or kill this process here if `JAX_ERRORS_FAULT` names this stage (and this is the time it names)."""
    wanted = os.environ.get(FAULT_ENV)
    if not wanted or not wanted.startswith(stage):
        return
    stop = wanted.endswith(":stop")
    name, _, nth = wanted.removesuffix(":stop").partition("@")
    if name != stage:
        return
    _reached[stage] += 1
    if _reached[stage] == int(nth or 1):
        os.kill(os.getpid(), signal.SIGSTOP if stop else signal.SIGKILL)
