"""Kernel for solver.players.lookup: which entry of an abstracted strategy table a
decision reads. Private: call solver.players.lookup."""

from __future__ import annotations

import numpy as np

from game_def import kernels as k
from game_def.kernels import jit

from solver.mccfr import kernels as ab
from solver.players import _kernels as ka


@jit
def _entry_at(rules, history, player):
    """The table entry of the decision reached by `history` (action ids, chance included),
    or -1 if the table has none for it (the strategy then plays uniformly)."""
    state, know = ka._replay(rules, history)
    seat = k.current_player(state)
    legal = np.empty(k.MAX_LEGAL, dtype=np.int64)
    m = k.legal_actions(state, rules, legal)
    scratch = np.empty((ab.SCRATCH_ROWS, k.MAX_LEGAL), dtype=np.int64)
    abst = np.empty(k.MAX_LEGAL, dtype=np.int64)
    out = np.empty(k.MAX_LEGAL, dtype=np.float64)
    return ka._table_probs(player, state, rules, know, seat, legal, m, scratch, abst, out)
