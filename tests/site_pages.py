"""Reading a built site in tests: a page's text, one section of a card, every file's bytes."""

import re
from pathlib import Path


def read(site: Path, page: str) -> str:
    return (site / page).read_text(encoding="utf-8")


def section(html: str, name: str) -> str:
    match = re.search(rf'<section id="{name}-section"[^>]*>(.*?)</section>', html, re.DOTALL)
    assert match, f"no {name} section"
    return match.group(1)


def site_files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}
