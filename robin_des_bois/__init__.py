"""Robin des Bois, the card game of the French rules (docs/robin-des-bois-rules.md), as
the OpenSpiel game `robin_des_bois`, registered when this package is imported.

    import pyspiel, robin_des_bois
    game = pyspiel.load_game("robin_des_bois", {"players": 2})

Box contents the rules do not give (colours, values, copies, gold cards, hand size and
limit, players) are game parameters with documented defaults (rules.PARAMETER_DEFAULTS).
"""

from __future__ import annotations

from .actions import ActionLayout
from .game import GAME_NAME, RobinDesBoisGame, RobinDesBoisObserver
from .rules import PARAMETER_DEFAULTS, Rules, RulesError, from_params
from .state import RobinDesBoisState, utilities

__all__ = ["ActionLayout", "GAME_NAME", "PARAMETER_DEFAULTS", "RobinDesBoisGame",
           "RobinDesBoisObserver", "RobinDesBoisState", "Rules", "RulesError",
           "from_params", "utilities"]
