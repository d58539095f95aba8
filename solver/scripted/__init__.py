"""Scripted players that play on their own information only: the league (docs/bots.md).
Kernels behind `solver.scripted.kernels`; here, the players' names and their default
parameters. `solver.players` makes them agents (options, OpenSpiel bots), and Monte
Carlo CFR can train against them (`MCCFRConfig.league_opponents`). Below both in the
layering, so that training can play them without an import cycle.
"""

import numpy as np

from solver.scripted import kernels as _interface

LEAGUE_KINDS = {"truthful_challenger": _interface.TRUTHFUL_CHALLENGER,
                "silent": _interface.SILENT, "counter": _interface.COUNTER,
                "leader_bluffer": _interface.LEADER_BLUFFER,
                "threshold_challenger": _interface.THRESHOLD_CHALLENGER,
                "baiter": _interface.BAITER, "tempo": _interface.TEMPO}
LEAGUE_NAMES = tuple(LEAGUE_KINDS)
# Players held out for evaluation (docs/bots.md, "Held out"): training may not meet them.
HELD_OUT_KINDS = {"mirror": _interface.MIRROR, "careful": _interface.CAREFUL,
                  "late_bluffer": _interface.LATE_BLUFFER,
                  "peek_hoarder": _interface.PEEK_HOARDER,
                  "proportional": _interface.PROPORTIONAL}
HELD_OUT_NAMES = tuple(HELD_OUT_KINDS)
DEFAULT_THRESHOLD = 0.5    # threshold_challenger: challenge when P(claim false) > 0.5


def default_params(name: str) -> np.ndarray:
    """The parameter row `league_probs` reads for the league player `name` with its
    default options (NUM_LEAGUE_PARAMS values)."""
    params = np.zeros(_interface.NUM_LEAGUE_PARAMS)
    if name == "threshold_challenger":
        params[_interface.P_THRESHOLD] = DEFAULT_THRESHOLD
    return params


__all__ = ["DEFAULT_THRESHOLD", "HELD_OUT_KINDS", "HELD_OUT_NAMES", "LEAGUE_KINDS", "LEAGUE_NAMES", "default_params"]
