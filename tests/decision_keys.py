"""Every decision of a small variant's exact tree with its seat's fine key: what the tests
that build a table with a known answer (coverage, fallback rules) put entries under."""

from __future__ import annotations

import numpy as np

import game_def
from game_def import _core as k
from solver.mccfr import _abstraction as ab
from solver.players import _kernels as ka


def decisions_with_fine_keys(variant):
    """Yield (state, fine key, abstract action count) for every decision of the exact
    tree of `variant`, depth first."""
    rules = game_def.core.rules_array(variant)
    scratch = np.zeros((ab.SCRATCH_ROWS, k.MAX_LEGAL), np.int64)
    legal = np.zeros(k.MAX_LEGAL, np.int64)
    abst = np.zeros(k.MAX_LEGAL, np.int64)
    stack = [game_def.load_game(variant).new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            continue
        if state.is_chance_node():
            stack += [state.child(a) for a, _ in state.chance_outcomes()]
            continue
        _, know = ka._replay(rules, np.array(state.history(), dtype=np.int64))
        m = k._legal_actions(state.core_state, rules, legal)
        fine, _, count, _ = ab._decision_keys(state.core_state, rules, know,
                                              state.current_player(), legal, m, scratch,
                                              abst, False, False)
        yield state, int(fine), int(count)
        stack += [state.child(a) for a in state.legal_actions()]
