"""The one exception tree of jax-errors: every error the library raises on purpose."""

from __future__ import annotations

from pathlib import Path


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


class ReleaseError(SourceError):
    """A release cannot be had from the package index: unknown, not downloadable, or corrupt."""


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


class WorkerDied(JaxErrorsError):
    """A reproduction worker process ended while the harness waited for its reply (never reaches a user)."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


class TriggerError(JaxErrorsError):
    """Mining JAX's tests, or confirming what their asserts catch, cannot go on."""


class CommitMismatchError(TriggerError, ValueError):
    """The tests to run are not of the commit the installed jax was built from."""

    def __init__(self, *, commit: str, installed: str, version: str) -> None:
        self.commit = commit
        self.installed = installed
        super().__init__(
            f"the tests are of commit {commit[:10]}, which is no release tag, but the installed jax {version} "
            f"was built from {installed[:10]}: confirm the tests of a release tag (jax-v{version} runs on the "
            f"installed jax, another in its own environment)"
        )


class NotMinedError(TriggerError, LookupError):
    """No assert was mined from the tests of this commit yet."""

    def __init__(self, commit: str) -> None:
        self.commit = commit
        super().__init__(f"no asserts mined at {commit[:10]} (run `jax-errors triggers mine` first)")


class RegexTranslationError(JaxErrorsError, ValueError):
    """A Python regex uses syntax the browser's lookup (lookup.js) has no translation for."""


class KnowledgeError(JaxErrorsError):
    """A curated knowledge file is malformed."""

    def __init__(self, path: Path, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"bad knowledge file {path}: {reason}")


class SiteError(JaxErrorsError):
    """The site cannot be built where asked."""


class RecordError(SiteError):
    """A generated JSON record does not match its schema (a bug in the generator or the schema)."""

    def __init__(self, name: str, reason: str) -> None:
        self.name = name
        self.reason = reason
        super().__init__(f"{name} does not match its schema: {reason}")


class SearchIndexError(SiteError):
    """Pagefind is missing or failed to index the site."""


class QueryTooLongError(JaxErrorsError, ValueError):
    """A message to look up is longer than lookup reads."""

    def __init__(self, length: int, limit: int) -> None:
        self.length = length
        self.limit = limit
        super().__init__(f"the message is {length:,} characters long; lookup reads at most {limit:,}")


class ExplainError(JaxErrorsError):
    """Explaining an error where it happens cannot go on: no index to read, or one that cannot be read."""


class NoIndexError(ExplainError, FileNotFoundError):
    """No index is configured, and no catalogue is where the default says."""

    def __init__(self, where: str) -> None:
        self.where = where
        super().__init__(
            f"no index to explain errors with: {where}; build a site (`jax-errors build`) and set "
            "JAX_ERRORS_EXPLAIN_INDEX to its api/explain.json, or set JAX_ERRORS_DB to a catalogue "
            "(see README, \"Use it where the error happens\")"
        )


class IndexFileError(ExplainError, ValueError):
    """An explain index (api/explain.json) is not one this jax-errors reads: damaged, or of another format."""

    def __init__(self, where: str, reason: str) -> None:
        self.where = where
        self.reason = reason
        super().__init__(f"cannot read the explain index {where}: {reason}")


class UnknownCardError(ExplainError, LookupError):
    """No card of the index has this error id."""

    def __init__(self, error_id: str) -> None:
        self.error_id = error_id
        super().__init__(f"no card {error_id} in the index")


class SettingsFileError(ExplainError, ValueError):
    """The settings file is not TOML, or holds a setting of the wrong kind."""

    def __init__(self, path: Path, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(f"bad settings file {path}: {reason}")
