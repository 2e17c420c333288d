"""Run docs/where-the-error-happens.ipynb in a headless Jupyter kernel and take the README's screenshot of it.

    .venv/bin/python scripts/notebook_screenshot.py --index _site [--out docs/where-the-error-happens.png]

nbclient executes the notebook (the kernel reads the cards from --index or --db), nbconvert turns it
into HTML, and Playwright drives Debian's Chromium (scripts/setup-browser.sh; set JAX_ERRORS_CHROMIUM
for another) to photograph the page, with the first card's example fix unfolded.
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbconvert import HTMLExporter
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOK = ROOT / "docs" / "where-the-error-happens.ipynb"
CHROMIUM = os.environ.get("JAX_ERRORS_CHROMIUM", "/usr/bin/chromium")
# The machine's network is closed: nothing may phone home (as tests/test_site_browser.py).
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def executed(index: str | None, db: str | None, folder: Path) -> nbformat.NotebookNode:
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    os.environ.pop("JAX_ERRORS_EXPLAIN_INDEX" if db else "JAX_ERRORS_DB", None)
    os.environ["JAX_ERRORS_EXPLAIN_INDEX" if index else "JAX_ERRORS_DB"] = str(Path(index or db).resolve())
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    NotebookClient(notebook, timeout=300, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": str(folder)}}).execute()
    return notebook


def screenshot(html: str, out: Path, folder: Path) -> None:
    page_file = folder / "notebook.html"
    page_file.write_text(html, encoding="utf-8")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1100, "height": 900}, device_scale_factor=1)
        page.goto(page_file.as_uri())
        page.locator(".jax-errors-explain details summary").first.click()
        page.locator("main, body").first.screenshot(path=str(out))
        browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--index", help="a built site (or its api/explain.json)")
    source.add_argument("--db", help="a catalogue database (run from the checkout: knowledge/ and cases/ are read)")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "where-the-error-happens.png")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        notebook = executed(args.index, args.db, Path(tmp))
        html, _ = HTMLExporter(template_name="lab").from_notebook_node(notebook)
        screenshot(html, args.out, Path(tmp))
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
