"""The `robinwood` command line: one group whose commands live in one module per job
(solve_commands, read_commands, strength_commands, sweep_command; shared options in
robinwood.options). Commands parse, validate and print; the work is the library's.
Bad input prints one line and exits with status 2."""

from __future__ import annotations

import sys

import click

from game_def.errors import RobinWoodError
from robinwood.read_commands import explore, play, report, stats
from robinwood.solve_commands import simulate, solve
from robinwood.strength_commands import exploit, league, leaks, search, tournament
from robinwood.sweep_command import sweep


class _Group(click.Group):
    """Turns every known user error into one line on stderr and exit status 2."""

    def main(self, *args, **kwargs):
        kwargs["standalone_mode"] = False
        try:
            return super().main(*args, **kwargs)
        except click.exceptions.Exit as e:
            sys.exit(e.exit_code)
        except click.exceptions.Abort:
            click.echo("robinwood: interrupted", err=True)
            sys.exit(130)
        except click.ClickException as e:
            click.echo(f"robinwood: error: {e.format_message()}", err=True)
            sys.exit(2)
        except (RobinWoodError, ValueError) as e:
            click.echo(f"robinwood: error: {e}", err=True)
            sys.exit(2)
        except OSError as e:  # a write failing late (disk full, permissions): not input
            where = f": '{e.filename}'" if e.filename else ""
            click.echo(f"robinwood: error: {e.strerror or e}{where}", err=True)
            sys.exit(1)


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="robinwood")
def cli() -> None:
    """Solve and analyse the bluffing card game Robin Wood."""


for _command in (simulate, solve, stats, report, sweep, tournament, league, exploit, leaks,
                 search, explore, play):
    cli.add_command(_command)


def main() -> None:
    cli(prog_name="robinwood")


if __name__ == "__main__":
    main()
