"""Releases crawled from their wheels on a package index: a folder index built here, read by pip offline."""

import hashlib
import io
import json
import tarfile
import zipfile
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import select
from sqlalchemy.orm import Session

from jax_errors.cli import cli
from jax_errors.db.engine import open_database
from jax_errors.db.models import Snapshot

MODULE = '''\
def check(x):
    if x < 0:
        raise ValueError(f"x must be >= 0, got {x}")
'''


def make_wheel(version: str, commit: str, extra: str = "") -> bytes:
    """A pure-Python jax wheel: the package, its version file, and the metadata pip checks."""
    buffer = io.BytesIO()
    info = f"jax-{version}.dist-info"
    with zipfile.ZipFile(buffer, "w") as wheel:
        wheel.writestr("jax/__init__.py", "")
        wheel.writestr("jax/version.py", f'_version = "{version}"\n_git_hash = "{commit}"\n')
        wheel.writestr("jax/_src/checks.py", MODULE + extra)
        wheel.writestr(f"{info}/METADATA", f"Metadata-Version: 2.1\nName: jax\nVersion: {version}\n")
        wheel.writestr(f"{info}/WHEEL", "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
        wheel.writestr(f"{info}/RECORD", "")
    return buffer.getvalue()


RELEASES = {  # version: (commit, upload time, extra source)
    "0.0.1": ("a" * 40, "2025-01-02T03:04:05.000000Z", ""),
    "0.0.2": ("b" * 40, "2025-02-03T04:05:06.000000Z", "\n\ndef other():\n    raise TypeError('new in 0.0.2')\n"),
}


def make_sdist(version: str, files: dict[str, str]) -> bytes:
    """A source archive: its files under a `jax-X.Y.Z/` folder, as jax's oldest releases were published."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for path, text in {"setup.py": "", **files}.items():
            data = text.encode()
            member = tarfile.TarInfo(f"jax-{version}/{path}")
            member.size = len(data)
            archive.addfile(member, io.BytesIO(data))
    return buffer.getvalue()


SDISTS = {  # version: (upload time, files): the oldest archives have no version.py, later ones no commit
    "0.0.0a1": ("2018-12-07T19:13:36.000000Z", {"jax/__init__.py": "", "jax/core.py": MODULE}),
    "0.0.0a2": ("2019-03-01T10:00:00.000000Z", {"jax/__init__.py": "", "jax/core.py": MODULE,
                                                "jax/version.py": '__version__ = "0.0.0a2"\n'}),
}


def write_index(root: Path, *, corrupt: str | None = None, missing: str | None = None,
                sdists: bool = False) -> str:
    """A PEP 503 folder index (what pip reads) with PEP 691 JSON beside it (what the crawler reads).

    With `sdists`, the index also serves SDISTS, source archives only, as jax's releases before 0.4.15.
    """
    files, links = [], []
    (root / "files").mkdir(parents=True, exist_ok=True)

    def list_file(name: str, data: bytes, uploaded: str) -> None:
        files.append({"filename": name, "hashes": {"sha256": hashlib.sha256(data).hexdigest()},
                      "upload-time": uploaded, "url": f"../../files/{name}", "yanked": False})
        links.append(f'<a href="../../files/{name}">{name}</a>')

    for version, (uploaded, sources) in SDISTS.items() if sdists else ():
        name = f"jax-{version}.tar.gz"
        data = make_sdist(version, sources)
        (root / "files" / name).write_bytes(data)
        list_file(name, data, uploaded)
    for version, (commit, uploaded, extra) in RELEASES.items():
        name = f"jax-{version}-py3-none-any.whl"
        data = make_wheel(version, commit, extra)
        (root / "files" / name).unlink(missing_ok=True)
        if version != missing:
            # A tampered wheel still reads as one; only the index's hash tells it apart.
            served = make_wheel(version, commit, extra + "# tampered\n") if version == corrupt else data
            (root / "files" / name).write_bytes(served)
        list_file(name, data, uploaded)
    project = root / "simple" / "jax"
    project.mkdir(parents=True, exist_ok=True)
    (project / "index.html").write_text("<html><body>" + "".join(links) + "</body></html>")
    (project / "index.json").write_text(json.dumps({"files": files, "meta": {"api-version": "1.1"}, "name": "jax"}))
    return (root / "simple").as_uri()


@pytest.fixture
def index_env(tmp_path, monkeypatch):
    def make(**kwargs) -> Path:
        monkeypatch.setenv("JAX_ERRORS_INDEX_URL", write_index(tmp_path / "index", **kwargs))
        monkeypatch.setenv("JAX_ERRORS_CACHE", str(tmp_path / "cache"))
        return tmp_path / "cache" / "wheels"
    return make


def crawl(db: Path, *versions: str):
    args = ["crawl", "--db", str(db)] + [a for v in versions for a in ("--pypi", v)]
    return CliRunner().invoke(cli, args)


def snapshots(db: Path) -> dict[str, Snapshot]:
    with Session(open_database(db)) as session:
        return {row.version: row for row in session.scalars(select(Snapshot))}


def test_releases_are_crawled_from_their_wheels_pinned_and_dated(tmp_path, index_env):
    cache = index_env()
    db = tmp_path / "catalogue.db"
    result = crawl(db, "0.0.1", "0.0.2")
    assert result.exit_code == 0, result.output
    rows = snapshots(db)
    assert {v: (r.commit, r.tag, r.origin, r.source) for v, r in rows.items()} == {
        "0.0.1": ("a" * 40, "jax-v0.0.1", "wheel", "jax-0.0.1-py3-none-any.whl"),
        "0.0.2": ("b" * 40, "jax-v0.0.2", "wheel", "jax-0.0.2-py3-none-any.whl"),
    }
    assert rows["0.0.1"].committed_at == datetime(2025, 1, 2, 3, 4, 5)  # the index's upload time
    # Each distinct blob is parsed once: 0.0.2 shares __init__.py and (but for version.py) nothing else.
    lines = [line for line in result.output.splitlines() if line.startswith("jax-v")]
    assert "parsed 3 new blobs, reused 0" in lines[0] and "parsed 2 new blobs, reused 1" in lines[1]
    assert sorted(p.name for p in cache.iterdir()) == ["jax-0.0.1-py3-none-any.whl", "jax-0.0.2-py3-none-any.whl"]


def test_a_wheel_in_the_cache_is_not_downloaded_again_unless_it_is_damaged(tmp_path, index_env):
    cache = index_env()
    db = tmp_path / "catalogue.db"
    assert crawl(db, "0.0.1").exit_code == 0
    wheel = cache / "jax-0.0.1-py3-none-any.whl"
    stamp = wheel.stat().st_mtime_ns
    assert crawl(db, "0.0.1").exit_code == 0
    assert wheel.stat().st_mtime_ns == stamp
    wheel.write_bytes(b"damaged")
    result = crawl(db, "0.0.1")
    assert result.exit_code == 0, result.output
    assert zipfile.is_zipfile(wheel)


@pytest.mark.parametrize(("kwargs", "versions", "message"), [
    ({}, ("0.0.1", "9.9"), "Error: jax 9.9 is not on the package index file://"),
    ({"corrupt": "0.0.2"}, ("0.0.1", "0.0.2"), "Error: the download of jax-0.0.2-py3-none-any.whl is corrupt"),
    ({"missing": "0.0.2"}, ("0.0.1", "0.0.2"), "Error: cannot download jax 0.0.2: "),
])
def test_bad_releases_are_one_line_errors_and_lose_nothing(tmp_path, index_env, kwargs, versions, message):
    db = tmp_path / "catalogue.db"
    index_env()
    assert crawl(db, "0.0.1").exit_code == 0  # what is stored before
    index_env(**kwargs)
    result = crawl(db, *versions)
    assert result.exit_code == 1
    [line] = [line for line in result.output.splitlines() if line.strip()]
    assert line.startswith(message), result.output
    assert list(snapshots(db)) == ["0.0.1"]


def test_an_index_that_cannot_be_read_is_one_line(tmp_path, monkeypatch):
    monkeypatch.setenv("JAX_ERRORS_INDEX_URL", (tmp_path / "nowhere").as_uri())
    result = crawl(tmp_path / "catalogue.db", "0.0.1")
    assert result.exit_code == 1
    assert result.output.strip().startswith("Error: cannot read the package index at file://")


def test_a_catalogue_of_releases_builds_and_its_records_name_their_origin(tmp_path, index_env):
    index_env()
    db = tmp_path / "catalogue.db"
    assert crawl(db, "0.0.1", "0.0.2").exit_code == 0
    result = CliRunner().invoke(cli, ["build", "--db", str(db), "--out", str(tmp_path / "site"), "--no-search",
                                      "--knowledge", str(tmp_path / "none"), "--cases", str(tmp_path / "none")])
    assert result.exit_code == 0, result.output
    record = json.loads(next((tmp_path / "site" / "api" / "errors").glob("*.json")).read_text())
    assert record["history"]["first"]["origin"] == "wheel"


def test_every_snapshot_origin_is_one_the_published_schemas_allow():
    from jax_errors.crawler.sources import ORIGINS
    from jax_errors.site_gen.records import SCHEMA_DIR

    for name in ("error.schema.json", "index.schema.json"):
        text = (SCHEMA_DIR / name).read_text()
        enums = [e for e in _enums(json.loads(text)) if "git" in e]
        assert enums and all(tuple(e) == ORIGINS for e in enums), name


def _enums(node):
    if isinstance(node, dict):
        if "enum" in node:
            yield node["enum"]
        for value in node.values():
            yield from _enums(value)
    elif isinstance(node, list):
        for value in node:
            yield from _enums(value)


def test_an_undated_release_is_dated_by_its_upload_and_stays_undated_offline(tmp_path):
    """An installed wheel records no date: the index's upload time gives one; no index, no date, no failure."""
    from jax_errors.crawler.releases import upload_dates

    date_of = upload_dates(write_index(tmp_path / "index"))
    assert date_of(Snapshot(commit="b" * 40, version="0.0.2", tag="jax-v0.0.2")) == datetime(2025, 2, 3, 4, 5, 6, tzinfo=UTC)
    assert date_of(Snapshot(commit="c" * 40, version="9.9.9")) is None  # not on the index
    assert date_of(Snapshot(commit="d" * 40)) is None  # a commit of no release
    offline = upload_dates((tmp_path / "nowhere").as_uri())
    assert offline(Snapshot(commit="b" * 40, version="0.0.2")) is None


def test_every_release_on_the_index_is_crawled_the_oldest_archives_named_by_the_index(tmp_path, index_env):
    index_env(sdists=True)
    db = tmp_path / "catalogue.db"
    result = CliRunner().invoke(cli, ["crawl", "--db", str(db), "--pypi-all"])
    assert result.exit_code == 0, result.output
    rows = snapshots(db)
    assert {v: (r.commit, r.tag, r.origin) for v, r in rows.items()} == {
        # No version.py: the index's version names it; no commit: the version stands in for one.
        "0.0.0a1": ("release-0.0.0a1", "jax-v0.0.0a1", "sdist"),
        "0.0.0a2": ("release-0.0.0a2", "jax-v0.0.0a2", "sdist"),
        "0.0.1": ("a" * 40, "jax-v0.0.1", "wheel"),
        "0.0.2": ("b" * 40, "jax-v0.0.2", "wheel"),
    }
    assert rows["0.0.0a1"].committed_at == datetime(2018, 12, 7, 19, 13, 36)
    lines = [line for line in result.output.splitlines() if line.startswith("jax-v")]
    assert [line.split(" ", 1)[0] for line in lines] == ["jax-v0.0.0a1", "jax-v0.0.0a2", "jax-v0.0.1", "jax-v0.0.2"]


def test_a_release_that_records_no_commit_is_shown_without_a_made_up_one(tmp_path, index_env):
    index_env(sdists=True)
    db = tmp_path / "catalogue.db"
    assert CliRunner().invoke(cli, ["crawl", "--db", str(db), "--pypi", "0.0.0a1", "--pypi", "0.0.1"]).exit_code == 0
    site = tmp_path / "site"
    result = CliRunner().invoke(cli, ["build", "--db", str(db), "--out", str(site), "--no-search",
                                      "--knowledge", str(tmp_path / "none"), "--cases", str(tmp_path / "none")])
    assert result.exit_code == 0, result.output
    pages = "".join(page.read_text() for page in site.rglob("*.html"))
    assert "jax-v0.0.0a1" in pages and "release-0.0.0a1" not in pages
    assert 'none recorded</span> (<a href="https://github.com/jax-ml/jax/tree/jax-v0.0.0a1">its tag</a>)' in (
        site / "index.html").read_text()
    assert f'<code class="dim">{"a" * 10}</code>' in pages  # a wheel's commit is still shown
