"""What a solved strategy does, weighted exactly by how often each situation is reached.

Walks the game (numba core) and its solved FlatTree in lockstep: the i-th legal action
of a core state is the i-th child of its tree node, so the strategy's probabilities and
the game's meaning (which card was peeked, what was announced, who won) meet without
storing anything per node. What is counted is decided by the recorder shared with
sampled analysis (analysis._counts); here its weights are exact reach probabilities.
"""

from __future__ import annotations

import numpy as np

from game_def import kernels as k
from game_def.kernels import jit
from game_def.core import rules_array
from game_def.variant import Variant
from solver.exact.best_response import check_strategy
from solver.exact.kernels import expand, grow_2d, grow_1d, initially_mentioned, mentioned_after
from solver.exact.tree import FlatTree

from ._counts import SILENT, _record_decision, _record_terminal, _record_transition, counts_for
from .statistics import ProfileStatistics

__all__ = ["SILENT", "ProfileStatistics", "profile_statistics", "profile_statistics_from_run"]


@jit
def _walk(rules, symmetric, first_child, infoset, infoset_offset, strategy, counts):
    """Add every node's exact reach-weighted counts (analysis._counts) into `counts`.

    Depth first over the core and the tree together; branches the profile never plays
    (reach 0) are skipped, since they add nothing.
    """
    stack = np.empty((4096, k.S_SIZE), dtype=np.int64)
    meta = np.empty((4096, 2), dtype=np.int64)  # node id, positions mentioned
    reach = np.empty(4096, dtype=np.float64)
    actions = np.empty(k.MAX_LEGAL, dtype=np.int64)
    probs = np.empty(k.MAX_CHANCE_OUTCOMES + k.MAX_LEGAL, dtype=np.float64)
    n_pos = rules[k.R_N]
    stack[0] = k.initial_state(rules)
    meta[0, 0] = 0
    meta[0, 1] = initially_mentioned(stack[0], n_pos)
    reach[0] = 1.0
    top = 1
    while top > 0:
        top -= 1
        state = stack[top].copy()
        node = meta[top, 0]
        touched = meta[top, 1]
        r = reach[top]
        cur = k.current_player(state)
        if cur == k.TERMINAL_PLAYER:
            _record_terminal(counts, state, r)
            continue
        m = expand(state, rules, cur, symmetric, touched, actions, probs)
        if cur != k.CHANCE_PLAYER:
            off = infoset_offset[infoset[node]]
            for i in range(m):
                probs[i] = strategy[off + i]
            _record_decision(counts, state, rules, actions, probs, m, r)
        stack = grow_2d(stack, top + m)
        meta = grow_2d(meta, top + m)
        reach = grow_1d(reach, top + m)
        f = first_child[node]
        for i in range(m):
            w = r * probs[i]
            if w == 0.0:
                continue
            a = actions[i]
            nxt = stack[top]
            nxt[:] = state
            k.apply_action(nxt, rules, a)
            _record_transition(counts, rules, state, a, nxt, w)
            meta[top, 0] = f + i
            meta[top, 1] = mentioned_after(touched, cur, a, nxt, n_pos)
            reach[top] = w
            top += 1


def profile_statistics(variant: Variant, tree: FlatTree, strategy: np.ndarray,
                       symmetric: bool = False) -> ProfileStatistics:
    """Exact statistics of `strategy` (both seats) on the tree it was solved on."""
    if variant.players != 2:
        raise ValueError("exact statistics need a two-player variant")
    check_strategy(tree, strategy)
    counts = counts_for(variant)
    _walk(rules_array(variant), symmetric, tree.first_child, tree.infoset,
          tree.infoset_offset, strategy, counts)
    return ProfileStatistics(variant, counts)


def profile_statistics_from_run(run_dir) -> ProfileStatistics:
    """Exact statistics of the strategy stored by `robinwood solve` in run_dir; a
    missing, corrupt or mismatched strategy file is a one-line StrategyFileError."""
    from solver.store import StrategyFileError

    from solver.exact.stored import load_exact_run

    variant, tree, strategy, symmetric = load_exact_run(run_dir, two_players=True)
    try:
        return profile_statistics(variant, tree, strategy, symmetric)
    except ValueError as e:
        raise StrategyFileError(f"the strategy in {run_dir} is not a valid strategy: "
                                f"{e}") from None
