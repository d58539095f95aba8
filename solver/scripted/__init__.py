"""Scripted players that play on their own information only: the league (docs/bots.md).
The baseline bots (honest, paranoid, heuristic, uniform) too. Kernels behind
`solver.scripted.kernels`; here, the players' names and their default parameters. `solver.players` makes them agents (options, OpenSpiel bots), and Monte
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
                  "proportional": _interface.PROPORTIONAL, "prover": _interface.PROVER,
                  "disruptor": _interface.DISRUPTOR, "unmasker": _interface.UNMASKER}
HELD_OUT_NAMES = tuple(HELD_OUT_KINDS)
# Fallback rules (docs/bots.md, "Fallback rules"): what a table plays where it has not
# learned beyond two seats; loadable by name, never a training opponent nor one of the
# players that measure a strategy (it is part of the strategy it falls back for).
FALLBACK_RULE_KINDS = {"claim_counter": _interface.CLAIM_COUNTER, "sound": _interface.SOUND}
FALLBACK_RULE_NAMES = tuple(FALLBACK_RULE_KINDS)
# The baseline bots (solver.scripted._basic); uniform play is one of them.
BASIC_KINDS = {"uniform": _interface.UNIFORM, "honest": _interface.HONEST,
               "paranoid": _interface.PARANOID, "heuristic": _interface.HEURISTIC}
BASIC_NAMES = tuple(BASIC_KINDS)
DEFAULT_THRESHOLD = 0.5    # threshold_challenger: challenge when P(claim false) > 0.5


def default_params(name: str) -> np.ndarray:
    """The parameter row `league_probs` reads for the league player `name` with its
    default options (NUM_LEAGUE_PARAMS values)."""
    params = np.zeros(_interface.NUM_LEAGUE_PARAMS)
    if name == "threshold_challenger":
        params[_interface.P_THRESHOLD] = DEFAULT_THRESHOLD
    return params


def scripted_params(name: str) -> np.ndarray:
    """The parameter row `scripted_probs` reads for the scripted player `name` (a
    baseline bot, a league, held-out or fallback player) with its default options."""
    if name in BASIC_KINDS:
        return default_basic_params(name)
    if name == "sound":
        return _interface.SOUND_DEFAULTS.copy()
    return default_params(name)


def default_basic_params(name: str) -> np.ndarray:
    """The parameter row `basic_probs` reads for the baseline bot `name` with its
    default options (the heuristic's bluff and challenge rates; the others read none)."""
    params = np.zeros(2)
    if name == "heuristic":
        params[_interface.P_BLUFF] = _interface.DEFAULT_BLUFF
        params[_interface.P_CHALLENGE] = _interface.DEFAULT_CHALLENGE_BELOW
    return params


__all__ = ["BASIC_KINDS", "BASIC_NAMES", "DEFAULT_THRESHOLD", "default_basic_params",
           "scripted_params",
           "FALLBACK_RULE_KINDS", "FALLBACK_RULE_NAMES", "HELD_OUT_KINDS", "HELD_OUT_NAMES", "LEAGUE_KINDS", "LEAGUE_NAMES", "default_params"]
