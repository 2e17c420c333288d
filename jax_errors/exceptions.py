"""The one exception tree of jax-errors: every error the library raises on purpose."""

from __future__ import annotations


class JaxErrorsError(Exception):
    """Root of every error jax-errors raises on purpose."""


class SourceError(JaxErrorsError):
    """A JAX source (git repository or installed package) cannot be read."""


class NotAGitRepositoryError(SourceError, FileNotFoundError):
    """A path is not a git repository."""

    def __init__(self, path: str) -> None:
        self.path = path
        super().__init__(f"not a git repository: {path}")


class UnknownRevisionError(SourceError, LookupError):
    """A revision (commit, tag or branch) does not exist in the repository."""

    def __init__(self, rev: str, repo: str) -> None:
        self.rev = rev
        self.repo = repo
        super().__init__(f"unknown revision {rev!r} in {repo}")


class JaxNotInstalledError(SourceError, ModuleNotFoundError):
    """No `jax` package is installed in this environment."""

    def __init__(self) -> None:
        super().__init__("no installed jax package found in this Python environment")


class SourceParseError(JaxErrorsError, SyntaxError):
    """A file of JAX's source does not parse; the crawl records it and goes on."""

    def __init__(self, path: str, lineno: int | None, reason: str, *, commit: str | None = None) -> None:
        self.path = path
        self.lineno = lineno
        self.reason = reason
        self.commit = commit
        where = f"{path}:{lineno}" if lineno else path
        at = f" at {commit[:10]}" if commit else ""
        super().__init__(f"cannot parse {where}{at}: {reason}")

    def __str__(self) -> str:
        return self.args[0]


class DatabaseError(JaxErrorsError):
    """The catalogue database cannot be opened, upgraded or written."""


class SnapshotNotFoundError(DatabaseError, LookupError):
    """No crawled snapshot has this tag, version or commit."""

    def __init__(self, label: str) -> None:
        self.label = label
        super().__init__(f"no crawled snapshot is {label!r} (crawl it first; `jax-errors stats` lists them)")


class CaseError(JaxErrorsError):
    """A reproduction case file is malformed."""

    def __init__(self, path: str, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"bad case {path}: {reason}")


class WorkerError(JaxErrorsError):
    """A reproduction worker process cannot start (jax fails to import, or it does not answer)."""
