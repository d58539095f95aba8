"""robinwood: command-line entry points over game_def (rules), solver and analysis."""

__version__ = "0.1.0"
