"""The `robinwood` command line: one group whose commands live in one module per job
(solve_commands, read_commands, strength_commands, sweep_command, audit_command;
shared options in robinwood.options). Commands parse, validate and print; the work is the library's.
Bad input prints one line and exits with status 2."""

from __future__ import annotations

import click

from common.cli import OneLineErrors
from robinwood.audit_command import audit
from robinwood.read_commands import explore, play, report, stats
from robinwood.solve_commands import simulate, solve
from robinwood.strength_commands import exploit, league, leaks, search, tournament
from robinwood.sweep_command import sweep


class _Group(OneLineErrors):
    """Every known user error as one line on stderr and exit status 2 (common.cli)."""

    prog = "robinwood"


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="robinwood")
def cli() -> None:
    """Solve and analyse the bluffing card game Robin Wood."""


for _command in (simulate, solve, stats, report, sweep, tournament, league, exploit, leaks,
                 search, explore, play, audit):
    cli.add_command(_command)


def main() -> None:
    cli(prog_name="robinwood")


if __name__ == "__main__":
    main()
