"""Every command has help text with an example of itself, and is documented in the README."""

from pathlib import Path

import click
import pytest

from jax_errors.cli import cli

README = (Path(__file__).parent.parent / "README.md").read_text()


def commands(group: click.Group, prefix: str = "jax-errors"):
    for name, command in sorted(group.commands.items()):
        yield f"{prefix} {name}", command
        if isinstance(command, click.Group):
            yield from commands(command, f"{prefix} {name}")


@pytest.mark.parametrize(("name", "command"), list(commands(cli)), ids=lambda v: v if isinstance(v, str) else "")
def test_command_has_help_and_is_in_readme(name, command):
    assert command.help and command.help.strip(), f"{name} has no help text"
    assert f"Example: {name}" in command.help, f"{name}'s help has no `Example: {name} ...` line"
    assert f"`{name}" in README, f"{name} is not in the README"
