"""League opponents in training: who plays a traversal's other seats instead of their
tables, and what they play (numba kernels; docs/mccfr.md, "League opponents").

With `CFG_LEAGUE_SHARE` > 0 and a non-empty `League`, that share of traversals draws one
league player or baseline bot (solver.scripted; the draw is _traversal._start_traversal's)
who plays every decision of every other seat of the traversal (copies of it at three or
four players), probes included, instead of their tables; in team mode it plays the other
team's two seats and the traverser's partner plays its own table (`_league_seat`), as it
will in play. The traverser's regrets then answer a mixture of the tables and the
league; the other seats' average strategies get nothing from those traversals (the
partner is never the seat a traversal averages, and the league's moves are not their
own). Kept apart: the traversal asks only whose decision the league plays and its move.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from game_def import kernels as k
from game_def.kernels import jit

from solver.mccfr._random import _pick
from solver.scripted import kernels as lg

League = namedtuple("League", ["kinds", "params"])
"""The league players a traversal may meet instead of the other seats' tables
(CFG_LEAGUE_SHARE of traversals, one player drawn uniformly for the whole traversal).
kinds[L]      solver.scripted kinds (int64); L = 0: always the table
params[L, P]  each player's parameter row (solver.scripted.default_params)"""


@jit
def _league_seat(rules, cur, seat):
    """Whether a league opponent plays `cur`'s decisions in a traversal for `seat`: every
    other seat's, except a team's partner (the opposite seat), who is the traverser's
    own side and plays its own table, as it will beside the trained seat in play."""
    if cur == seat:
        return False
    return not (rules[k.R_TEAMS] and cur % 2 == seat % 2)


@jit
def _league_move(league, foe, state, rules, know, seat, legal, m, probs, rng):
    """Index in legal[:m] of league player `foe`'s move for `seat` (probs: a buffer):
    a league player's rules, or a baseline bot's (uniform, honest, paranoid,
    heuristic)."""
    lg.scripted_probs(league.kinds[foe], league.params[foe], state, rules, know, seat,
                      legal, m, probs)
    return _pick(probs, m, rng)


def no_league() -> League:
    """A League with no players: every traversal meets the other seats' tables."""
    return League(np.zeros(0, dtype=np.int64),
                  np.zeros((0, lg.NUM_LEAGUE_PARAMS), dtype=np.float64))
