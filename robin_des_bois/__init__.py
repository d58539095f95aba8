"""Robin des Bois, the card game of the French rules (docs/robin-des-bois-rules.md), as
the OpenSpiel game `robin_des_bois`, registered when this package is imported.

    import pyspiel, robin_des_bois
    game = pyspiel.load_game("robin_des_bois", {"players": 4})   # the published box
    small = pyspiel.load_game("robin_des_bois", {"box": "small", "players": 2})

Box contents the rules do not give are game parameters (rules.PARAMETER_DEFAULTS): the
default is the published box (3 colours, values 1-9, 4 copies, money 9x3+2x6, 3 to 6
players), `box=small` the reduced box of the first model; every reading the published
descriptions leave open is a named option (docs/robin-des-bois-rules.md, I1).

A numba core plays the same rules fast (docs/robin-des-bois-rules.md, "Fast core"):

    result = robin_des_bois.simulate({"players": 3}, games=10_000, seed=1)

`simulate`, `SimulationResult` and `CoreState` are loaded on first use, so importing the
game does not import numba.
"""

from __future__ import annotations

from .actions import ActionLayout
from .game import GAME_NAME, RobinDesBoisGame, RobinDesBoisObserver
from .rules import PARAMETER_DEFAULTS, Rules, RulesError, from_params
from .state import RobinDesBoisState, utilities

__all__ = ["ActionLayout", "CoreState", "GAME_NAME", "PARAMETER_DEFAULTS",
           "RobinDesBoisGame", "RobinDesBoisObserver", "RobinDesBoisState", "Rules",
           "RulesError", "SimulationResult", "from_params", "simulate", "utilities"]

_LAZY = {"simulate": "simulation", "SimulationResult": "simulation", "CoreState": "core"}


def __getattr__(name: str):
    """The numba-backed names, imported on first use (PEP 562)."""
    if name in _LAZY:
        import importlib

        module = importlib.import_module(f".{_LAZY[name]}", __name__)
        value = getattr(module, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
