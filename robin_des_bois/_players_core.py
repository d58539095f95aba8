"""Numba kernels of the Monte Carlo search player (`players.MonteCarloSearch`): dealing a
determinization of the hidden cards, a greedy rollout policy, and the per-action
evaluation loop. Private; built on the core's kernels (`_core`), same state layout.

A determinization starts from a *view* array: a core state in which every hidden field
is blank (other players' hands hold only the cards known to be there, the first draw
pile holds nothing) while the public totals (hand sizes, pile size) are kept. The unseen
cards (`unseen[c]` copies of card c) are shuffled uniformly and dealt to fill the other
hands up to their sizes; the rest form the first pile. Nothing here reads a real game.
"""

from __future__ import annotations

import numpy as np

from . import _core as k
from ._core import (ACT, COUNTER, K_END, K_ROB, K_STASH, K_STEAL, MAX_LEGAL, MAX_PLAYERS,
                    MAX_TYPES, NUM_COUNTERS, OVER, R_OFFSETS, R_PLAYERS, R_TYPES, R_VALUES,
                    S_HAND_TOTAL, S_HANDS, S_PHASE, S_PILE, S_PILE_NUMBER, TARGET)
from ._jit import inline_jit, jit
from .rules import MAX_COPIES

MAX_POOL = MAX_TYPES * MAX_COPIES


@jit
def _determinize(view, rules, player, unseen, pool, out):
    """out = view with the unseen cards dealt uniformly: other hands up to their public
    sizes (cards already in them are known ones), the rest to the first pile."""
    out[:] = view
    t, n = rules[R_TYPES], rules[R_PLAYERS]
    m = 0
    for c in range(t):
        for _ in range(unseen[c]):
            pool[m] = c
            m += 1
    for i in range(m - 1, 0, -1):
        j = np.random.randint(i + 1)
        x = pool[i]
        pool[i] = pool[j]
        pool[j] = x
    idx = 0
    for p in range(n):
        if p == player:
            continue
        base = S_HANDS + p * MAX_TYPES
        have = 0
        for c in range(t):
            have += out[base + c]
        for _ in range(out[S_HAND_TOTAL + p] - have):
            out[base + pool[idx]] += 1
            idx += 1
    if out[S_PILE_NUMBER] == 1:
        for i in range(idx, m):
            out[S_PILE + pool[i]] += 1


@inline_jit
def _draw(s, rules):
    r = np.random.randint(s[k.S_PILE_TOTAL])
    c = 0
    while r >= s[S_PILE + c]:
        r -= s[S_PILE + c]
        c += 1
    return c


@inline_jit
def _greedy_choice(s, rules, actions, n):
    """The rollout policy: stash the highest run, else steal, else end; rob the highest
    treasure; counter when possible; takes, losses and discards uniformly at random."""
    ph = s[S_PHASE]
    if n == 1:
        return actions[0]
    if ph == ACT:
        best, best_v = -1, -1
        off_st, off_sl = rules[R_OFFSETS + K_STASH], rules[R_OFFSETS + K_STEAL]
        off_end = rules[R_OFFSETS + K_END]
        steal = -1
        v2 = rules[R_VALUES] - 2
        for i in range(n):
            a = actions[i]
            if off_st <= a < off_sl:
                low = (a - off_st) % v2
                if low > best_v:
                    best, best_v = a, low
            elif a >= off_sl and steal < 0:
                steal = a
        if best >= 0:
            return best
        if steal >= 0:
            return steal
        return off_end
    if ph == TARGET:
        best, best_v = actions[0], -1
        off, t, v = rules[R_OFFSETS + K_ROB], rules[R_TYPES], rules[R_VALUES]
        for i in range(n):
            card = (actions[i] - off) % t
            if card % v > best_v:
                best, best_v = actions[i], card % v
        return best
    if ph == COUNTER:
        return actions[0]          # counters come before allow in id order
    return actions[np.random.randint(n)]


@jit
def _rollout(s, rules, actions, counters):
    while s[S_PHASE] != OVER:
        if k._current_player(s) == k.CHANCE_PLAYER:
            k._apply(s, rules, _draw(s, rules), counters)
        else:
            n = k._legal(s, rules, actions)
            k._apply(s, rules, _greedy_choice(s, rules, actions, n), counters)


@jit
def _evaluate(view, rules, player, unseen, candidates, samples, margin_weight, totals):
    """totals[i] += the searcher's return after candidates[i] then a greedy rollout, over
    `samples` determinizations (each shared by every candidate), plus margin_weight times
    (own score - best other score)."""
    n = rules[R_PLAYERS]
    det = np.empty_like(view)
    sim = np.empty_like(view)
    pool = np.empty(MAX_POOL, dtype=np.int64)
    actions = np.empty(MAX_LEGAL, dtype=np.int64)
    counters = np.zeros(NUM_COUNTERS, dtype=np.int64)
    scores = np.empty(MAX_PLAYERS, dtype=np.int64)
    utils = np.empty(MAX_PLAYERS, dtype=np.float64)
    for _ in range(samples):
        _determinize(view, rules, player, unseen, pool, det)
        for i in range(candidates.shape[0]):
            sim[:] = det
            k._apply_action(sim, rules, candidates[i], counters)
            _rollout(sim, rules, actions, counters)
            k._scores(sim, rules, scores)
            k._utilities(scores, n, utils)
            other = -1
            for p in range(n):
                if p != player and scores[p] > other:
                    other = scores[p]
            totals[i] += utils[player] + margin_weight * (scores[player] - other)
