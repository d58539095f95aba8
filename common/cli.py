"""The command lines' answer to bad input, shared by `robinwood` and `python -m
robin_des_bois`: every user error as one line on stderr, "PROG: error: ...", and exit
status 2; an interruption as status 130; a write failing after the checks (a full
disk, say), which is not the user's input, as one line and status 1."""

from __future__ import annotations

import sys

import click


class OneLineErrors(click.Group):
    """A click group whose `main` turns usage errors and the package's own errors (every
    ValueError: the project's errors derive from it and carry one line by contract) into
    one line and exit status 2. Subclasses set `prog`, the name the line starts with."""

    prog = "robinwood"

    def main(self, *args, **kwargs):
        kwargs["standalone_mode"] = False
        try:
            return super().main(*args, **kwargs)
        except click.exceptions.Exit as e:
            sys.exit(e.exit_code)
        except click.exceptions.Abort:
            click.echo(f"{self.prog}: interrupted", err=True)
            sys.exit(130)
        except click.ClickException as e:
            click.echo(f"{self.prog}: error: {e.format_message()}", err=True)
            sys.exit(2)
        except ValueError as e:
            lines = str(e).splitlines() or [type(e).__name__]
            click.echo(f"{self.prog}: error: {lines[0]}", err=True)
            sys.exit(2)
        except OSError as e:
            where = f": '{e.filename}'" if e.filename else ""
            click.echo(f"{self.prog}: error: {e.strerror or e}{where}", err=True)
            sys.exit(1)
