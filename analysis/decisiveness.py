"""How early a round is decided, exactly: Ludii's Decisiveness and LeadChange read on
strikes (the only running score a round of Robin Wood has), over every history of a
two-player profile weighted by its reach.

- the strike leader: the seat with strictly fewer strikes (none when tied);
- decisiveness: over rounds someone wins, the share of the round's turns gone when the
  eventual winner takes a strike lead it keeps to the end (1 when it never leads at the
  end, e.g. a win by unmasking while level): lower is decided earlier;
- lead changes: how often a round's strike lead passes to the other seat, on average
  (through a tie: strikes only grow, so a lead never passes in one move).

Walks the numba core and the solved tree in lockstep, as analysis.exact does.
"""

from __future__ import annotations

import numpy as np

from game_def import kernels as k
from game_def.kernels import jit
from game_def.core import rules_array
from game_def.variant import Variant
from solver.exact.kernels import expand, grow_1d, grow_2d, initially_mentioned, mentioned_after
from solver.exact.tree import FlatTree


@jit
def _leader(state):
    a, b = state[k.S_STRIKES], state[k.S_STRIKES + 1]
    if a < b:
        return 0
    if b < a:
        return 1
    return -1


@jit
def _walk(rules, symmetric, first_child, infoset, infoset_offset, strategy, out):
    """out: [P(someone wins), sum of reach * decided share, sum of reach * lead
    changes, P(round)]."""
    stack = np.empty((4096, k.S_SIZE), dtype=np.int64)
    # node, positions mentioned, current leader, turn the leader took the lead (1 is
    # the first), lead changes, turn of the last move, the last seat to lead
    meta = np.empty((4096, 7), dtype=np.int64)
    reach = np.empty(4096, dtype=np.float64)
    actions = np.empty(k.MAX_LEGAL, dtype=np.int64)
    probs = np.empty(k.MAX_CHANCE_OUTCOMES + k.MAX_LEGAL, dtype=np.float64)
    n_pos = rules[k.R_N]
    stack[0] = k.initial_state(rules)
    meta[0, 0] = 0
    meta[0, 1] = initially_mentioned(stack[0], n_pos)
    meta[0, 2] = _leader(stack[0])
    meta[0, 3] = 1
    meta[0, 4] = 0
    meta[0, 5] = 1
    meta[0, 6] = -1
    reach[0] = 1.0
    top = 1
    while top > 0:
        top -= 1
        state = stack[top].copy()
        node, touched = meta[top, 0], meta[top, 1]
        leader, since, changes = meta[top, 2], meta[top, 3], meta[top, 4]
        last, before = meta[top, 5], meta[top, 6]
        r = reach[top]
        cur = k.current_player(state)
        if cur == k.TERMINAL_PLAYER:
            out[3] += r
            out[2] += r * changes
            w = state[k.S_WINNER]
            if w >= 0:
                out[0] += r
                out[1] += r * (since / last if leader == w else 1.0)
            continue
        m = expand(state, rules, cur, symmetric, touched, actions, probs)
        if cur != k.CHANCE_PLAYER:
            off = infoset_offset[infoset[node]]
            for i in range(m):
                probs[i] = strategy[off + i]
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
            now = _leader(nxt)
            meta[top, 0] = f + i
            meta[top, 1] = mentioned_after(touched, cur, a, nxt, n_pos)
            meta[top, 2] = now
            meta[top, 3] = since if now == leader else state[k.S_TURN] + 1
            meta[top, 4] = changes + (1 if now >= 0 and before >= 0 and now != before
                                      else 0)
            meta[top, 6] = now if now >= 0 else before
            meta[top, 5] = state[k.S_TURN] + 1
            reach[top] = w
            top += 1


def decisiveness(variant: Variant, tree: FlatTree, strategy: np.ndarray,
                 symmetric: bool = False) -> dict:
    """{'decisiveness', 'lead_changes'} of `strategy` (both seats) on the tree it was
    solved on (module docstring)."""
    if variant.players != 2:
        raise ValueError("decisiveness is measured for two players")
    out = np.zeros(4)
    _walk(rules_array(variant), symmetric, tree.first_child, tree.infoset,
          tree.infoset_offset, strategy, out)
    won = out[0]
    return {"decisiveness": float(out[1] / won) if won > 0 else float("nan"),
            "lead_changes": float(out[2] / out[3])}
