"""Errors of trigger mining and confirmation, in the project's one exception tree."""

from __future__ import annotations

from jax_errors.exceptions import JaxErrorsError


class TriggerError(JaxErrorsError):
    """Trigger mining or confirmation cannot go on."""


class CommitMismatchError(TriggerError, ValueError):
    """The tests to run are not of the commit the installed jax was built from."""

    def __init__(self, *, commit: str, installed: str, version: str) -> None:
        self.commit = commit
        self.installed = installed
        super().__init__(
            f"the tests are of commit {commit[:10]}, but the installed jax {version} was built from "
            f"{installed[:10]}: confirm the tests of the installed version's tag (jax-v{version})"
        )


class NotMinedError(TriggerError, LookupError):
    """No assert was mined from the tests of this commit yet."""

    def __init__(self, commit: str) -> None:
        self.commit = commit
        super().__init__(f"no asserts mined at {commit[:10]} (run `jax-errors triggers mine` first)")
