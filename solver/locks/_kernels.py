"""What the mover knows at every decision of an exact Robin Wood tree, per infoset: the
features locks select on (solver.decisions.kernels.features_of). One lockstep walk of
the numba core and the FlatTree (the i-th expanded edge of a core state is the i-th
child of its node), as in analysis.exact."""

from __future__ import annotations

import numpy as np

from game_def import kernels as k
from game_def.kernels import jit
from solver.decisions import kernels as dk
from solver.exact.kernels import (expand, grow_1d, grow_2d, initially_mentioned,
                                  mentioned_after)

F_KIND, F_SEAT, F_PEEKED, F_CLAIM, F_POWER, F_STRIKES, F_TURN, F_FACEUP = (
    dk.F_KIND, dk.F_SEAT, dk.F_PEEKED, dk.F_CLAIM, dk.F_POWER, dk.F_STRIKES, dk.F_TURN,
    dk.F_FACEUP)
NUM_FEATURES = dk.NUM_FEATURES
UNSEEN = -2  # an infoset the walk has not reached yet
_features_of = dk.features_of


@jit
def _infoset_features(rules, symmetric, first_child, infoset, features):
    """Fill features[infoset] (UNSEEN beforehand); return how many decision nodes
    disagreed with their infoset's first node (0 for a sound tree: the features are
    what the mover knows)."""
    stack = np.empty((4096, k.S_SIZE), dtype=np.int64)
    node_of = np.empty(4096, dtype=np.int64)
    touched_of = np.empty(4096, dtype=np.int64)
    actions = np.empty(k.MAX_LEGAL, dtype=np.int64)
    probs = np.empty(k.MAX_CHANCE_OUTCOMES + k.MAX_LEGAL, dtype=np.float64)
    row = np.empty(NUM_FEATURES, dtype=np.int64)
    n = rules[k.R_N]
    stack[0] = k.initial_state(rules)
    node_of[0] = 0
    touched_of[0] = initially_mentioned(stack[0], n)
    top = 1
    bad = 0
    while top > 0:
        top -= 1
        state = stack[top].copy()
        node = node_of[top]
        touched = touched_of[top]
        cur = k.current_player(state)
        if cur == k.TERMINAL_PLAYER:
            continue
        m = expand(state, rules, cur, symmetric, touched, actions, probs)
        if cur != k.CHANCE_PLAYER:
            s = infoset[node]
            _features_of(state, rules, cur, row)
            if features[s, 0] == UNSEEN:
                features[s, :] = row
            else:
                for j in range(NUM_FEATURES):
                    if features[s, j] != row[j]:
                        bad += 1
                        break
        stack = grow_2d(stack, top + m)
        node_of = grow_1d(node_of, top + m)
        touched_of = grow_1d(touched_of, top + m)
        f = first_child[node]
        for i in range(m):
            nxt = stack[top]
            nxt[:] = state
            k.apply_action(nxt, rules, actions[i])
            node_of[top] = f + i
            touched_of[top] = mentioned_after(touched, cur, actions[i], nxt, n)
            top += 1
    return bad
