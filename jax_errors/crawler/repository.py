"""All git access of jax-errors: a JAX repository read through GitPython, never checked out."""

from __future__ import annotations

import contextlib
import io
import zlib
from collections.abc import Iterator
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path
from typing import NamedTuple

import git
from gitdb.exc import BadName, BadObject

from jax_errors.crawler.docs import DOCS_DIR
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
            docs=self.files(commit.hexsha, folder=DOCS_DIR, python_only=False),
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

    def first_parent_line(self, rev: str, *, after: str | None = None) -> list[tuple[str, datetime]]:
        """`rev`'s first-parent history, oldest first, with commit dates (UTC): from the root, or after `after`.

        From the root, a commit's place in the list, counted from 1, is its first-parent depth: it
        never changes as the branch grows.

        Raises:
            SourceError: `after` is not on `rev`'s first-parent history.
        """
        tip = self.commit(rev).hexsha
        span = [f"{after}..{tip}"] if after else [tip]
        listed = self.repo.git.rev_list("--first-parent", "--reverse", "--format=%ct", *span)
        line, lines = [], iter(listed.splitlines())
        for header in lines:
            sha, stamp = header.split()[-1], next(lines)
            line.append((sha, datetime.fromtimestamp(int(stamp), UTC)))
        if after and line and [c.hexsha for c in self.commit(line[0][0]).parents[:1]] != [self.commit(after).hexsha]:
            raise SourceError(f"{after[:10]} is not on the first-parent history of {rev}")
        return line

    def first_parent_changes(self, start: str, tip: str, *, folder: str = PACKAGE_DIR
                             ) -> Iterator[tuple[str, list[ChangedFile]]]:
        """Per first-parent commit after `start` up to `tip` that touches `folder`, oldest first: its changed files.

        Each commit is compared with its first parent, merges too; renames are a deletion and an addition.
        """
        output = self.repo.git.log("--first-parent", "--reverse", "--raw", "--no-renames", "--no-abbrev", "-z",
                                   "--diff-merges=first-parent", "--format=%x01%H", f"{start}..{tip}", "--", folder)
        for chunk in output.split("\x01")[1:]:
            header, _, raw = chunk.partition("\0")
            fields = raw.lstrip("\n").split("\0")
            changes = []
            for meta, path in zip(fields[0::2], fields[1::2]):
                _old_mode, new_mode, _old, new, status = meta.lstrip(":").split()
                if status == "D":
                    changes.append(ChangedFile(path, None, False))
                else:
                    changes.append(ChangedFile(path, new, new_mode == _SYMLINK_MODE))
            yield header.strip(), changes

    def release_fork_points(self, on_line: set[str], tags: list[str], *, not_before: datetime | None = None,
                            reach: int = 50) -> dict[str, str]:
        """Per tag, the commit of `on_line` it was made from: its own, or where its release branch left the line.

        A tag whose first `reach` first-parent commits are all off the line is left out, and so is one
        committed before `not_before` (the line's first commit), which cannot have been made from it.
        """
        found = {}
        dated = self._tag_dates
        # Tags resolved from one listing of them: resolving each by name reads every ref of the clone again.
        tagged = {tag: sha for sha, names in self._tags_by_commit.items() for tag in names}
        for tag in tags:
            if not_before is not None and tag in dated and dated[tag] < not_before:
                continue
            fork = self.fork_point(tagged.get(tag, tag), on_line, reach=reach)
            if fork is not None:
                found[tag] = fork
        return found

    def fork_point(self, rev: str, on_line: set[str], *, reach: int = 50) -> str | None:
        """The first commit of `on_line` among `rev`'s first `reach` first-parent commits (`rev` itself first).

        Raises:
            UnknownRevisionError: `rev` names no commit.
        """
        tip = self.commit(rev).hexsha
        return next((sha for sha in self.repo.git.rev_list("--first-parent", f"--max-count={reach}", tip).split()
                     if sha in on_line), None)

    def commit_date(self, sha: str) -> datetime | None:
        """When `sha` was committed, if the repository holds that commit."""
        return self.repo.commit(sha).committed_datetime if is_commit(sha) and self.has_commit(sha) else None

    def has_commit(self, sha: str) -> bool:
        """Whether `sha`, a full commit id, names a commit the repository holds.

        Asked of GitPython's long-running `git cat-file --batch-check`: a refresh asks it of every
        snapshot's commit, and a process each took 2.5 ms (0.5 s for 193 releases).
        """
        if not is_commit(sha):
            return False
        try:
            return self.repo.odb.info(bytes.fromhex(sha)).type == b"commit"
        except ValueError:  # "missing": not in this clone
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

    @cached_property
    def _tag_dates(self) -> dict[str, datetime]:
        dates = {}
        for line in self.repo.git.for_each_ref(
                "--format=%(refname:short) %(*committerdate:unix) %(committerdate:unix)", "refs/tags").splitlines():
            name, *stamps = line.split()
            if stamps:
                dates[name] = datetime.fromtimestamp(int(stamps[0]), UTC)  # annotated tags peel to the commit
        return dates

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


class ChangedFile(NamedTuple):
    """A file a commit changed: its new blob, or None where the commit deleted it."""

    path: str
    blob_sha: str | None
    link: bool


def _is_git_dir(path: Path) -> bool:
    return (path / "HEAD").is_file() and (path / "objects").is_dir()

