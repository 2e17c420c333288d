"""Pagefind as the build runs it: in a process of its own, which ends with the build."""

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

CHILD = textwrap.dedent("""
    import os, signal, sys
    from pathlib import Path
    from jax_errors.site_gen.search import IndexRun

    sources, bundle = Path(sys.argv[1]), Path(sys.argv[2])
    run = IndexRun(sources, bundle, changed=0)
    print(run.process.pid, flush=True)
    os.kill(os.getpid(), signal.SIGKILL)  # the build dies while Pagefind indexes
""")


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(") ")[1][0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def test_pagefind_dies_with_a_build_killed_while_it_indexes(tmp_path):
    sources = tmp_path / "sources" / "errors"
    sources.mkdir(parents=True)
    for i in range(3000):  # enough pages for Pagefind to take a while
        (sources / f"{i}.html").write_text(f'<html lang="en"><body><main data-pagefind-body><h1>Error {i}</h1>'
                                           f"<p>words of error number {i} {'text ' * 40}</p></main></body></html>")
    child = subprocess.run([sys.executable, "-c", CHILD, str(tmp_path / "sources"), str(tmp_path / "bundle")],
                           capture_output=True, text=True, env=dict(os.environ), timeout=60)
    pid = int(child.stdout.split()[0])
    deadline = time.monotonic() + 5
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not alive(pid)
    assert not (tmp_path / "bundle" / "pagefind-entry.json").exists()  # it was cut short, not left to finish


def test_a_fragment_name_pagefind_lengthened_is_seen(tmp_path):
    import gzip
    import json

    from jax_errors.site_gen.pagefind_bundle import lengthened_names, referenced_files
    from jax_errors.site_gen.search import IndexRun

    sources = tmp_path / "sources"
    sources.mkdir()
    for i in range(3):
        (sources / f"{i}.html").write_text(f'<html lang="en"><body><main data-pagefind-body>page {i}</main></body></html>')
    bundle = tmp_path / "bundle"
    assert IndexRun(sources, bundle, changed=3).wait() == 3
    assert not lengthened_names(referenced_files(bundle))
    [meta] = [bundle / f for f in referenced_files(bundle) if f.endswith(".pf_meta")]
    name = sorted(f for f in referenced_files(bundle) if f.startswith("fragment/"))[0].split("/")[1][:-12]
    data = gzip.decompress(meta.read_bytes())
    assert json.loads((bundle / "pagefind-entry.json").read_text())["languages"]
    longer = data.replace(bytes([0x60 + len(name)]) + name.encode(), bytes([0x60 + len(name) + 1]) + name.encode() + b"0")
    assert longer != data
    meta.write_bytes(gzip.compress(longer))  # as Pagefind names the second of two pages whose 7 digits agree
    assert lengthened_names(referenced_files(bundle))


def test_only_a_change_of_text_makes_a_new_fragment_not_one_of_weights(tmp_path):
    """Pagefind weighs a retired card's words less; a fragment holds the text, so it stays the same."""
    from jax_errors.site_gen.search import fragment_changes

    old = tmp_path / "card.html"
    old.write_text('<article data-pagefind-body><h1>unknown axis name</h1></article>', encoding="utf-8")
    weighed = ('<article data-pagefind-body data-pagefind-weight="0.25">'
               '<h1 data-pagefind-weight="1.75">unknown axis name</h1></article>')
    assert not fragment_changes(old, weighed)
    assert fragment_changes(old, weighed.replace("unknown", "unbound"))
    assert fragment_changes(tmp_path / "gone.html", weighed)
