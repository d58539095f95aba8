"""The one-step searcher's limit on an exact tree: numba kernels (solver.evaluation.
resolve_exact.one_step_strategy is the typed API)."""

from __future__ import annotations

import numpy as np

from game_def import kernels as k
from game_def.kernels import jit

CHANCE, DECISION = 1, 2


@jit
def _others_reach(kind, player, infoset, first_child, num_children, edge_prob, offset,
                  strategy, me, eps, out):
    """out[n]: the probability of reaching node n from chance and from the seat other
    than `me` playing `strategy` mixed with uniform at rate `eps` (`me`'s own actions
    count 1): `me`'s belief weight of n within its information set."""
    out[0] = 1.0
    for node in range(kind.shape[0]):
        if kind[node] == 0:
            continue
        f = first_child[node]
        m = num_children[node]
        for i in range(m):
            p = 1.0
            if kind[node] == CHANCE:
                p = edge_prob[f + i]
            elif player[node] != me:
                p = (1.0 - eps) * strategy[offset[infoset[node]] + i] + eps / m
            out[f + i] = out[node] * p


@jit
def _action_scores(kind, player, infoset, first_child, num_children, offset, reach, values,
                   me, out):
    """out[slot, c]: the belief-weighted value to `me` (player 0's values negated for
    seat 1) of each of `me`'s actions when both seats continue as continuation c of
    `values` (continuations x nodes) after it."""
    sign = 1.0 if me == 0 else -1.0
    for node in range(kind.shape[0]):
        if kind[node] != DECISION or player[node] != me:
            continue
        f = first_child[node]
        off = offset[infoset[node]]
        w = reach[node]
        if w == 0.0:
            continue
        for i in range(num_children[node]):
            for c in range(values.shape[0]):
                out[off + i, c] += sign * w * values[c, f + i]


@jit
def _phases(rules, first_child, infoset, out):
    """out[s]: the core phase at infoset s of the non-symmetric exact tree (a DFS over
    the core in lockstep with the tree's node numbering)."""
    states = np.empty((256, k.S_SIZE), dtype=np.int64)
    nodes = np.empty(256, dtype=np.int64)
    actions = np.empty(k.MAX_LEGAL, dtype=np.int64)
    probs = np.empty(k.MAX_CHANCE_OUTCOMES, dtype=np.float64)
    states[0] = k.initial_state(rules)
    nodes[0] = 0
    top = 1
    while top > 0:
        top -= 1
        state = states[top].copy()
        node = nodes[top]
        cur = k.current_player(state)
        if cur == k.TERMINAL_PLAYER:
            continue
        if cur == k.CHANCE_PLAYER:
            m = k.chance_outcomes(state, rules, actions, probs)
        else:
            m = k.legal_actions(state, rules, actions)
            out[infoset[node]] = state[k.S_PHASE]
        if top + m > states.shape[0]:
            grown = np.empty((2 * (top + m), k.S_SIZE), dtype=np.int64)
            grown[:top] = states[:top]
            states = grown
            g2 = np.empty(2 * (top + m), dtype=np.int64)
            g2[:top] = nodes[:top]
            nodes = g2
        f = first_child[node]
        for i in range(m):
            states[top] = state
            k.apply_action(states[top], rules, actions[i])
            nodes[top] = f + i
            top += 1
