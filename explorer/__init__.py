"""The strategy explorer: a local web app (and a terminal game) over a solved run.

    robinwood explore RUN_DIR      # Browse situations, Ask the report's tables, Play it
    robinwood play RUN_DIR         # play against the strategy in the terminal

Layers: `run` loads the strategy and answers what it does at a state (probabilities,
exact values or table visits); `board` turns a state into what a player sees; `session`
replays rounds from a deal and keeps the games being played; `ask` builds the report's
tables with example situations; `api` is the JSON interface, `app` the Starlette
application serving it and the static front end; `terminal` is `robinwood play`.
"""

from .run import ExploredRun, load_run

__all__ = ["ExploredRun", "load_run", "create_app"]


def create_app(run_or_dir):
    """The Starlette application for a run directory (or a loaded ExploredRun)."""
    from .app import create_app as _create

    return _create(run_or_dir)
