"""Shared test set-up: importing game_def registers the robin_wood game."""

import game_def  # noqa: F401  (registers robin_wood with pyspiel)
