"""All git access of jax-errors: a JAX repository read through GitPython, never checked out."""

from __future__ import annotations

import contextlib
import io
import zlib
from collections.abc import Iterator
from datetime import datetime
from functools import cached_property
from pathlib import Path

import git
from gitdb.exc import BadName, BadObject

from jax_errors.crawler.sources import PACKAGE_DIR, SourceFile, SourceSnapshot, is_package_source
from jax_errors.exceptions import NotAGitRepositoryError, SourceError, UnknownRevisionError
from jax_errors.snapshots import RELEASE_TAG_PREFIX, is_commit, version_key


class JaxRepository:
    """A JAX git repository (bare, or with a work tree), opened lazily and never checked out.

    Blobs are read straight from the object database, so a bare clone or one owned by another
    user (opened as a bare repo) works, and nothing on disk changes.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path).expanduser()

    @cached_property
    def repo(self) -> git.Repo:
        if not self.path.exists():
            raise NotAGitRepositoryError(str(self.path))
        try:
            repo = git.Repo(self.path)
        except (git.InvalidGitRepositoryError, git.NoSuchPathError) as error:
            raise NotAGitRepositoryError(str(self.path)) from error
        if _is_git_dir(self.path):
            # A bare clone without a config (or with core.bare unset) is taken by GitPython for the
            # .git of its parent folder; GIT_DIR makes git read it as the bare repository it is.
            repo.git.update_environment(GIT_DIR=str(self.path.resolve()))
        return repo

    def close(self) -> None:
        # GitPython keeps `git cat-file` processes alive until closed.
        if "repo" in self.__dict__:
            self.repo.close()
            del self.__dict__["repo"]

    def __enter__(self) -> JaxRepository:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def commit(self, rev: str) -> git.Commit:
        """The commit a revision (sha, tag, branch, `HEAD~3`) names."""
        try:
            return self.repo.commit(rev)
        except (BadName, BadObject, ValueError, IndexError, git.GitCommandError) as error:
            raise UnknownRevisionError(rev, str(self.path)) from error

    @contextlib.contextmanager
    def pinned(self, rev: str) -> Iterator[SourceSnapshot]:
        """The package's Python files at `rev`; the repository's processes are released afterwards."""
        try:
            yield self.snapshot(rev)
        finally:
            self.close()

    def snapshot(self, rev: str) -> SourceSnapshot:
        commit = self.commit(rev)
        return SourceSnapshot(
            commit=commit.hexsha,
            origin="git",
            source=str(self.path),
            files=self.files(commit.hexsha),
            tag=self.release_tag_of(commit.hexsha, preferred=rev),
            version=None,
            committed_at=commit.committed_datetime,
        )

    def files(self, commit: str, *, folder: str = PACKAGE_DIR, python_only: bool = True,
              test_code: bool = False) -> list[SourceFile]:
        """The files under `folder` at `commit`: the package's `.py` files unless told otherwise.

        Parameters:
            folder: a top-level folder of the repository (`tests` for JAX's test suite).
            python_only: only `.py` files; False lists data files too (their bytes may be absent).
            test_code: in the package, its test utilities too (`sources.is_test_code`), which the crawl leaves out.
        """
        listing = self.repo.git.ls_tree("-r", "-z", "--full-tree", commit, "--", folder)
        files = []
        for entry in filter(None, listing.split("\0")):
            meta, path = entry.split("\t", 1)
            mode, kind, sha = meta.split()
            if folder == PACKAGE_DIR and not test_code:
                wanted = is_package_source(path)
            else:
                wanted = not python_only or path.endswith(".py")
            if kind == "blob" and wanted:
                files.append(SourceFile(path, sha, self._reader(sha), link=mode == _SYMLINK_MODE))
        return sorted(files, key=lambda f: f.path)

    def archive(self, commit: str, folder: str) -> bytes:
        """A tar archive of `folder` at `commit`, as `git archive` writes it."""
        buffer = io.BytesIO()
        self.repo.git.archive("--format=tar", commit, "--", folder, output_stream=buffer)
        return buffer.getvalue()

    def _reader(self, sha: str):
        return lambda: self.read_blob(sha)

    def read_blob(self, sha: str) -> bytes:
        """The bytes of a blob.

        Raises:
            SourceError: the object is missing or corrupt in the repository.
        """
        try:
            return self.repo.odb.stream(bytes.fromhex(sha)).read()
        except (ValueError, OSError, zlib.error, BadName, BadObject, git.GitCommandError) as error:
            reason = (str(error).strip().splitlines() or [type(error).__name__])[0]
            raise SourceError(f"cannot read blob {sha[:10]} in {self.path}: {reason}") from error

    def commits_since(self, rev: str, crawled: set[str], *, limit: int) -> list[str]:
        """First-parent commits up to `rev` not in `crawled`, oldest first, at most the newest `limit`.

        With nothing crawled yet, only `rev` itself: a first refresh does not crawl all history.
        """
        tip = self.commit(rev).hexsha
        if tip in crawled:
            return []
        known = [c for c in crawled if self.has_commit(c)]
        if not known:
            return [tip]
        listed = self.repo.git.rev_list("--first-parent", f"--max-count={limit}", tip, "--not", *known)
        return list(reversed(listed.split()))

    def commit_date(self, sha: str) -> datetime | None:
        """When `sha` was committed, if the repository holds that commit."""
        return self.repo.commit(sha).committed_datetime if is_commit(sha) and self.has_commit(sha) else None

    def has_commit(self, sha: str) -> bool:
        try:
            self.repo.git.cat_file("-e", f"{sha}^{{commit}}")
            return True
        except git.GitCommandError:
            return False

    @cached_property
    def _tags_by_commit(self) -> dict[str, list[str]]:
        tags: dict[str, list[str]] = {}
        for line in self.repo.git.for_each_ref(
            "--format=%(refname:short) %(*objectname) %(objectname)", "refs/tags"
        ).splitlines():
            name, *shas = line.split()
            target = shas[0] if len(shas) == 2 else shas[-1]  # annotated tags peel to the commit
            tags.setdefault(target, []).append(name)
        return tags

    def release_tag_of(self, commit: str, *, preferred: str | None = None) -> str | None:
        names = [t for t in self._tags_by_commit.get(commit, []) if t.startswith(RELEASE_TAG_PREFIX)]
        if preferred in names:
            return preferred
        return sorted(names)[0] if names else None

    def release_tags(self) -> list[str]:
        """Every `jax-v*` tag, oldest version first."""
        names = [t for ts in self._tags_by_commit.values() for t in ts if t.startswith(RELEASE_TAG_PREFIX)]
        return sorted(names, key=version_key)


_SYMLINK_MODE = "120000"


def _is_git_dir(path: Path) -> bool:
    return (path / "HEAD").is_file() and (path / "objects").is_dir()

