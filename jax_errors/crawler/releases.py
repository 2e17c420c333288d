"""Releases of jax from the package index, each read from its wheel, without a clone.

The index's JSON API (PEP 691, with PEP 700's upload times) lists every release's files; each
release's wheel is downloaded once by pip (no dependencies) into the cache folder, checked against
the index's SHA-256, and read the way an installed package is: pinned to the commit in its
`jax/version.py`, dated by its upload (or by a clone that has the commit).

jax 0.0 to 0.4.14 have no wheel, only a source archive: pip cannot download one without building
it, so those are fetched from the index's own link (checked against the same SHA-256) and their
`jax/` folder is read from the archive. The archives of 0.0 to 0.1.19 hold no `jax/version.py`: the
index's version names them.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import shutil
import sys
import tarfile
import tempfile
import urllib.error
import urllib.parse
import urllib.request
import zipfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from jax_errors.cache import cache_folder
from jax_errors.crawler.installed import package_snapshot
from jax_errors.crawler.repository import JaxRepository
from jax_errors.crawler.sources import PACKAGE_DIR, SourceSnapshot, is_package_source
from jax_errors.db.models import Snapshot
from jax_errors.exceptions import ReleaseError
from jax_errors.progress import Progress
from jax_errors.reproduce.sandbox import tool_failure
from jax_errors.snapshots import is_commit, version_key

INDEX_ENV = "JAX_ERRORS_INDEX_URL"
DEFAULT_INDEX = "https://pypi.org/simple/"
PROJECT = "jax"
_WHEEL = re.compile(rf"^{PROJECT}-(?P<version>[^-]+)-py3-none-any\.whl$")
_SDIST = re.compile(rf"^{PROJECT}-(?P<version>[^-]+)\.tar\.gz$")
_JSON = "application/vnd.pypi.simple.v1+json"
DOWNLOAD_TIMEOUT = 600


@dataclass(frozen=True)
class Release:
    """One release of jax on the index: its pure-Python wheel (else its source archive) and when it was uploaded."""

    version: str
    filename: str
    sha256: str
    uploaded_at: datetime | None
    url: str = ""  # where the index links the file (a source archive is fetched from it)

    @property
    def is_wheel(self) -> bool:
        return self.filename.endswith(".whl")


def index_url() -> str:
    return os.environ.get(INDEX_ENV, DEFAULT_INDEX)


def download_cache() -> Path:
    return cache_folder("wheels")


def list_releases(index: str | None = None) -> list[Release]:
    """Every release of jax on the index, oldest first: its wheel, or its source archive when it has none.

    Yanked files are left out, and so are releases with neither.

    Raises:
        ReleaseError: the index cannot be read, or does not answer in JSON.
    """
    index = index or index_url()
    page = _read_project_page(index)
    project = index.rstrip("/") + f"/{PROJECT}/"
    releases: dict[str, Release] = {}
    for file in page.get("files", []):
        name = file.get("filename", "")
        match = _WHEEL.match(name) or _SDIST.match(name)
        if match is None or file.get("yanked") or "sha256" not in file.get("hashes", {}):
            continue
        version = match.group("version")
        uploaded = file.get("upload-time")
        release = Release(version, name, file["hashes"]["sha256"], _parse_time(uploaded) if uploaded else None,
                          urllib.parse.urljoin(project, file.get("url", name)))
        if version not in releases or release.is_wheel:
            releases[version] = release
    return sorted(releases.values(), key=lambda r: version_key(r.version))


def upload_dates(index: str | None = None) -> Callable[[Snapshot], datetime | None]:
    """A snapshot's date from the index: when its release was uploaded (None for a commit, or offline).

    For `crawl.date_undated_snapshots`: an installed wheel records no date. The index is read at the
    first release asked about; when it cannot be read, nothing is dated and nothing fails.
    """
    uploads: dict[str, datetime | None] | None = None  # read once, at the first release asked about

    def date_of(snapshot: Snapshot) -> datetime | None:
        nonlocal uploads
        if snapshot.release is None:
            return None
        if uploads is None:
            try:
                uploads = {r.version: r.uploaded_at for r in list_releases(index)}
            except ReleaseError:
                uploads = {}  # offline: it stays undated
        return uploads.get(snapshot.release)

    return date_of


def select_releases(available: list[Release], versions: list[str], *, every: bool) -> list[Release]:
    """The releases asked for, oldest first: named `versions`, or with `every` all the index has (0.0 on).

    Raises:
        ReleaseError: a named version is not on the index.
    """
    by_version = {r.version: r for r in available}
    missing = [v for v in versions if v not in by_version]
    if missing:
        newest = available[-1].version if available else "none"
        raise ReleaseError(f"jax {', '.join(missing)} is not on the package index {index_url()} "
                           f"(newest there: {newest})")
    chosen = {v: by_version[v] for v in versions}
    if every:
        chosen.update({r.version: r for r in available})
    return sorted(chosen.values(), key=lambda r: version_key(r.version))


def fetch_release(release: Release, *, cache: Path | None = None, index: str | None = None) -> Path:
    """The release's wheel in the cache, downloaded by pip when it is not there or does not match its hash.

    Raises:
        ReleaseError: pip fails, or what it downloaded does not match the index's SHA-256.
    """
    cache = cache or download_cache()
    path = cache / release.filename
    if path.is_file() and _sha256(path) == release.sha256:
        return path
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache, prefix=".download-") as folder:
        downloaded = Path(folder) / release.filename
        if release.is_wheel:
            _pip_download(release, folder, index)
        else:
            _fetch(release, downloaded)
        if not downloaded.is_file():
            raise ReleaseError(f"cannot download jax {release.version}: pip saved no {release.filename}")
        if _sha256(downloaded) != release.sha256:
            raise ReleaseError(f"the download of {release.filename} is corrupt: its SHA-256 is not the index's")
        os.replace(downloaded, path)
    return path


def _pip_download(release: Release, folder: str, index: str | None) -> None:
    command = [sys.executable, "-m", "pip", "download", f"{PROJECT}=={release.version}", "--no-deps",
               "--only-binary=:all:", "--dest", folder, "--index-url", index or index_url(),
               "--quiet", "--disable-pip-version-check", "--no-input"]
    if (reason := tool_failure(command, DOWNLOAD_TIMEOUT)) is not None:
        raise ReleaseError(f"cannot download jax {release.version}: {reason}")


def _fetch(release: Release, destination: Path) -> None:
    """A source archive, from the index's link (pip would build it to download it)."""
    try:
        with urllib.request.urlopen(release.url, timeout=DOWNLOAD_TIMEOUT) as response, destination.open("wb") as out:
            shutil.copyfileobj(response, out)
    except (urllib.error.URLError, OSError, TimeoutError) as error:
        raise ReleaseError(f"cannot download jax {release.version}: {getattr(error, 'reason', error)}") from error


def fetch_releases(releases: list[Release], *, jobs: int = 4, progress: Progress | None = None) -> list[Path]:
    """Each release's wheel (see `fetch_release`), `jobs` downloads at a time, in the releases' order."""
    done = 0
    if progress:
        progress(0, len(releases), "")
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = [pool.submit(fetch_release, release) for release in releases]
        for future in as_completed(futures):
            future.result()
            done += 1
            if progress:
                progress(done, len(releases), "")
    return [future.result() for future in futures]


def release_snapshot(release: Release, path: Path, *, clone: JaxRepository | None = None) -> SourceSnapshot:
    """The release's jax package as a snapshot, dated by a clone that has its commit, else by its upload.

    A package whose `version.py` records no commit (the oldest source archives) is pinned to the
    clone's `jax-vX.Y.Z` tag when there is one.

    Raises:
        ReleaseError: the file is not a readable wheel or archive.
    """
    try:
        files = _package_files(path) if release.is_wheel else _archive_package_files(path)
    except (zipfile.BadZipFile, tarfile.TarError, OSError, EOFError) as error:
        raise ReleaseError(f"{path.name} is not a readable {'wheel' if release.is_wheel else 'archive'}: "
                           f"{error}") from error
    if not files:
        raise ReleaseError(f"{path.name} holds no {PACKAGE_DIR}/ package")
    snapshot = package_snapshot(files, origin="wheel" if release.is_wheel else "sdist", source=release.filename,
                                known_version=release.version)
    if clone is not None and not is_commit(snapshot.commit) and snapshot.tag in clone.release_tags():
        snapshot = dataclasses.replace(snapshot, commit=clone.commit(snapshot.tag).hexsha)
    committed = clone.commit_date(snapshot.commit) if clone is not None else None
    return dataclasses.replace(snapshot, committed_at=committed or release.uploaded_at)


def _package_files(wheel: Path) -> list[tuple[str, bytes]]:
    with zipfile.ZipFile(wheel) as archive:
        return [(name, archive.read(name)) for name in archive.namelist()
                if is_package_source(name) and not name.endswith("/")]


def _archive_package_files(sdist: Path) -> list[tuple[str, bytes]]:
    """The `jax/` files of a source archive, whose paths start with its `jax-X.Y.Z/` folder."""
    files = []
    with tarfile.open(sdist, "r:gz") as archive:
        for member in archive:
            path = member.name.partition("/")[2]
            if member.isfile() and is_package_source(path):
                files.append((path, archive.extractfile(member).read()))  # type: ignore[union-attr]
    return files


def _read_project_page(index: str) -> dict:
    url = index.rstrip("/") + f"/{PROJECT}/"
    if url.startswith("file://"):
        url += "index.json"  # a folder index written for tests: PEP 691's JSON next to PEP 503's HTML
    request = urllib.request.Request(url, headers={"Accept": _JSON})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            kind = response.headers.get("Content-Type", _JSON) if not url.startswith("file://") else _JSON
            body = response.read()
    except (urllib.error.URLError, OSError, TimeoutError) as error:
        raise ReleaseError(f"cannot read the package index at {url}: {getattr(error, 'reason', error)}") from error
    if _JSON not in kind:
        raise ReleaseError(f"the package index at {url} does not answer in JSON (PEP 691): {kind}")
    try:
        return json.loads(body)
    except ValueError as error:
        raise ReleaseError(f"the package index at {url} sent JSON that does not parse: {error}") from error


def _parse_time(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).astimezone(UTC)


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()
