"""A JAX source that attacks the crawler and the site: a 20 MB file, bytes that are not UTF-8, NUL bytes, a
symbolic link, and messages holding markup, template syntax, right-to-left text and emoji. Each file gets a
status, the crawl goes on, the site escapes every message and the JSON export keeps it exactly."""

import json
from html.parser import HTMLParser
from pathlib import Path

import pytest
from commands import ok
from sqlalchemy import select
from sqlalchemy.orm import Session

from jax_errors.db.engine import open_database
from jax_errors.db.models import Blob, SnapshotFile

HOSTILE = '''
def script(x):
    raise ValueError("</script><script>alert(1)</script> got " + str(x))


def jinja(x):
    raise TypeError(f"{{{{ x }}}} and {{% if x %}}boom{{% endif %}} for {x}")


def rtl(x):
    raise ValueError("\u202eRTL override: العربية עברית, then left to right")


def emoji(x):
    raise RuntimeError(f"emoji 🚀💥 {x} \U0001F600 done")
'''
# The messages as the cards and the export show them (placeholders as `{expression}`).
MESSAGES = {
    "script": "</script><script>alert(1)</script> got {str(x)}",
    "jinja": "{{ x }} and {% if x %}boom{% endif %} for {x}",
    "rtl": "\u202eRTL override: العربية עברית, then left to right",
    "emoji": "emoji 🚀💥 {x} \U0001F600 done",
}
BIG = b"TABLE = [\n" + b"    1,\n" * 3_000_000 + b"]\n"  # 21 MB of data


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    """A repository holding the hostile files, crawled (its output) into a database and built into a site."""
    from conftest import GitRepoBuilder

    root = tmp_path_factory.mktemp("hostile")
    builder = GitRepoBuilder(root / "jax-repo")
    files = {
        "jax/core.py": b"def check(x):\n    if x < 0:\n        raise ValueError(f'x must be non-negative, got {x}')\n",
        "jax/hostile.py": HOSTILE.encode(),
        "jax/big.py": BIG,
        "jax/latin1.py": b"def f():\n    raise ValueError('caf\xe9')\n",
        "jax/nul.py": b"def f():\n    raise ValueError('nul \x00 here')\n",
    }
    for name, data in files.items():
        (builder.path / name).parent.mkdir(parents=True, exist_ok=True)
        (builder.path / name).write_bytes(data)
    (builder.path / "jax/link.py").symlink_to("core.py")
    builder.repo.index.add([*files, "jax/link.py"])
    builder.commit({}, "hostile sources", tag="jax-v6.6.6")
    builder.repo.close()
    db, site = root / "catalogue.db", root / "site"
    crawled = ok("crawl", "--repo", str(builder.path), "--db", str(db), "--jobs", "1")
    ok("build", "--out", str(site), "--no-search", "--knowledge", str(root / "none"), "--cases", str(root / "none"),
       "--db", str(db))
    return crawled, db, site


def test_each_hostile_file_has_a_clear_status_and_the_crawl_goes_on(hostile):
    crawled, db, _site = hostile
    assert "jax-v6.6.6 (" in crawled and "6 files, 5 raise sites" in crawled and "4 files that do not parse" in crawled
    with Session(open_database(db)) as session:
        reasons = dict(session.execute(select(SnapshotFile.path, Blob.parse_error).join(Blob)).all())
    assert reasons == {
        "jax/big.py": "21,000,012 bytes, more than the 4,000,000 a source file is read up to (JAX_ERRORS_MAX_SOURCE_BYTES)",
        "jax/core.py": None,
        "jax/hostile.py": None,
        "jax/latin1.py": "not utf-8 text: byte 0xe9 cannot be decoded",
        "jax/link.py": "a symbolic link to 'core.py', not read",
        "jax/nul.py": "source code string cannot contain null bytes",
    }


class Scripts(HTMLParser):
    """The <script> elements of a page: their attributes and any text inside them."""

    def __init__(self) -> None:
        super().__init__()
        self.scripts: list[tuple[dict, str]] = []
        self._inside = False

    def handle_starttag(self, tag, attrs):
        if tag == "script":
            self.scripts.append((dict(attrs), ""))
            self._inside = True

    def handle_endtag(self, tag):
        self._inside = self._inside and tag != "script"

    def handle_data(self, data):
        if self._inside:
            attrs, text = self.scripts[-1]
            self.scripts[-1] = (attrs, text + data)


def hostile_records(site: Path) -> dict[str, dict]:
    """The export's record of each error of jax/hostile.py, by the function raising it."""
    index = json.loads((site / "api/errors.json").read_text(encoding="utf-8"))
    records = [json.loads((site / error["json"]).read_text(encoding="utf-8")) for error in index["errors"]]
    return {record["function"]: record for record in records if record["locations"][0]["path"] == "jax/hostile.py"}


def test_the_site_escapes_every_message(hostile):
    _crawled, _db, site = hostile
    pages = {path: path.read_text(encoding="utf-8") for path in site.rglob("*.html")}
    for path, html in pages.items():
        parser = Scripts()
        parser.feed(html)
        assert all(attrs.get("src") and not text.strip() for attrs, text in parser.scripts), path  # no inline script
        assert "<script>alert(1)" not in html
    cards = {function: (site / record["links"]["html"]).read_text(encoding="utf-8")
             for function, record in hostile_records(site).items()}
    assert "<h1 data-pagefind-meta=\"title\">&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; got" in cards["script"]
    assert "<title>{{ x }} and {% if x %}boom{% endif %} for" in cards["jinja"]  # shown, not rendered
    assert MESSAGES["rtl"] in cards["rtl"]
    assert "emoji 🚀💥 " in cards["emoji"] and "\U0001F600 done" in cards["emoji"]


def test_the_json_export_keeps_every_message_exactly(hostile):
    _crawled, _db, site = hostile
    for path in site.rglob("*.json"):
        json.loads(path.read_text(encoding="utf-8"))  # every file of the export parses
    assert {function: record["template"] for function, record in hostile_records(site).items()} == MESSAGES


def test_lookup_finds_the_hostile_messages(hostile):
    _crawled, db, _site = hostile
    for function, message in {"rtl": MESSAGES["rtl"], "emoji": "emoji 🚀💥 3 \U0001F600 done",
                              "script": "</script><script>alert(1)</script> got 3"}.items():
        matches = json.loads(ok("lookup", "--json", message, "--db", str(db)))["matches"]
        assert matches and matches[0]["path"] == "jax/hostile.py", function


@pytest.mark.parametrize("data, text_or_reason", [
    (b"# -*- coding: latin-1 -*-\nx = 'caf\xe9'\n", "# -*- coding: latin-1 -*-\nx = 'café'\n"),  # as Python reads it
    (b"\xef\xbb\xbfx = 1\n", "x = 1\n"),  # a byte-order mark
    (b"# caf\xe9\nx = 1\n", "cannot parse jax/a.py:1: not utf-8 text: byte 0xe9 cannot be decoded"),
    (b"x = 1\ny = 2\nz = '\xff'\n", "cannot parse jax/a.py:3: not utf-8 text: byte 0xff cannot be decoded"),
    (b"# coding: no-such-codec\nx = 1\n", "cannot parse jax/a.py: unknown encoding: no-such-codec"),
])
def test_a_source_is_decoded_as_python_decodes_it(data, text_or_reason):
    from jax_errors.crawler.statements import parse_source
    from jax_errors.exceptions import SourceParseError

    try:
        text, _tree = parse_source(data, "jax/a.py")
    except SourceParseError as error:
        text = str(error)
    assert text == text_or_reason
