"""numba kernels over a FlatTree: CFR-family iterations, expected values, best responses.

Private: `solver.exact.cfr` and `solver.exact.best_response` validate inputs and call these. Twins in
`tests/naive_solver.py` (recursive, dict-based) check them.
"""

from __future__ import annotations


from game_def.kernels import jit

TERMINAL, CHANCE, DECISION = 0, 1, 2

# Update rules (solver.exact.cfr.Algorithm.rule)
RULE_CFR = 0        # regret sum, uniform average
RULE_CFR_PLUS = 1   # regret sum floored at 0, average weighted by t
RULE_DISCOUNTED = 2  # DCFR(alpha, beta, gamma); linear CFR is DCFR(1, 1, 1)
RULE_PCFR_PLUS = 3  # predictive CFR+: floored regrets, prediction = last regret, t^2 average


@jit
def _regret_matching(regret, prediction, use_prediction, off, k, out):
    """Strategy proportional to positive (predicted) regrets; uniform if none."""
    total = 0.0
    for i in range(k):
        r = regret[off + i]
        if use_prediction:
            r += prediction[off + i]
        if r > 0.0:
            total += r
    for i in range(k):
        r = regret[off + i]
        if use_prediction:
            r += prediction[off + i]
        out[off + i] = (r / total if r > 0.0 else 0.0) if total > 0.0 else 1.0 / k


@jit
def _traverse(kind, player, infoset, first_child, num_children, edge_prob, payoff,
              infoset_offset, p, sign, avg_weight, current, instant, strategy_sum,
              reach_own, reach_other, value):
    """One CFR pass for player p: counterfactual regrets into `instant`, and
    avg_weight * own reach * current strategy into `strategy_sum`, both at p's infosets.

    `sign` is +1 for player 0 and -1 for player 1 (payoffs are player 0's).
    """
    n_nodes = kind.shape[0]
    reach_own[0] = 1.0
    reach_other[0] = 1.0
    for n in range(n_nodes):
        k = kind[n]
        if k == TERMINAL:
            continue
        f = first_child[n]
        c = num_children[n]
        ro = reach_own[n]
        rx = reach_other[n]
        if k == CHANCE:
            for i in range(c):
                reach_own[f + i] = ro
                reach_other[f + i] = rx * edge_prob[f + i]
        else:
            off = infoset_offset[infoset[n]]
            if player[n] == p:
                for i in range(c):
                    reach_own[f + i] = ro * current[off + i]
                    reach_other[f + i] = rx
            else:
                for i in range(c):
                    reach_own[f + i] = ro
                    reach_other[f + i] = rx * current[off + i]
    for n in range(n_nodes - 1, -1, -1):
        k = kind[n]
        if k == TERMINAL:
            value[n] = sign * payoff[n]
            continue
        ro = reach_own[n]
        rx = reach_other[n]
        if ro == 0.0 and rx == 0.0:
            value[n] = 0.0  # never weighs in any update (see docs/solver.md)
            continue
        f = first_child[n]
        c = num_children[n]
        v = 0.0
        if k == CHANCE:
            for i in range(c):
                v += edge_prob[f + i] * value[f + i]
            value[n] = v
            continue
        off = infoset_offset[infoset[n]]
        for i in range(c):
            v += current[off + i] * value[f + i]
        value[n] = v
        if player[n] == p:
            for i in range(c):
                instant[off + i] += rx * (value[f + i] - v)
                strategy_sum[off + i] += avg_weight * ro * current[off + i]
    return value[0]


@jit
def _update(own_infosets, infoset_offset, infoset_num_actions, rule, t, alpha, beta,
            gamma, instant, regret, prediction, strategy_sum, current):
    """Fold this iteration's regrets at `own_infosets` (the updating player's) into the
    cumulative ones and recompute the current strategy there; discount as the rule says."""
    pos_discount = t ** alpha / (t ** alpha + 1.0)
    neg_discount = t ** beta / (t ** beta + 1.0)
    avg_discount = (t / (t + 1.0)) ** gamma
    use_prediction = rule == RULE_PCFR_PLUS
    for j in range(own_infosets.shape[0]):
        s = own_infosets[j]
        off = infoset_offset[s]
        k = infoset_num_actions[s]
        for i in range(k):
            r = regret[off + i] + instant[off + i]
            if rule == RULE_CFR_PLUS or rule == RULE_PCFR_PLUS:
                r = max(r, 0.0)
            elif rule == RULE_DISCOUNTED:
                r *= pos_discount if r > 0.0 else neg_discount
                strategy_sum[off + i] *= avg_discount
            regret[off + i] = r
            prediction[off + i] = instant[off + i]
            instant[off + i] = 0.0
        _regret_matching(regret, prediction, use_prediction, off, k, current)


@jit
def _expected_value(kind, infoset, first_child, num_children, edge_prob, payoff,
                    infoset_offset, strategy, value):
    """Player 0's expected payoff when both players follow `strategy`."""
    for n in range(kind.shape[0] - 1, -1, -1):
        k = kind[n]
        if k == TERMINAL:
            value[n] = payoff[n]
            continue
        f = first_child[n]
        v = 0.0
        if k == CHANCE:
            for i in range(num_children[n]):
                v += edge_prob[f + i] * value[f + i]
        else:
            off = infoset_offset[infoset[n]]
            for i in range(num_children[n]):
                v += strategy[off + i] * value[f + i]
        value[n] = v
    return value[0]


@jit
def _own_depth(kind, player, first_child, num_children, b, depth):
    """Number of b's decisions strictly above each node (equal across an infoset)."""
    depth[0] = 0
    top = 0
    for n in range(kind.shape[0]):
        if kind[n] == TERMINAL:
            continue
        d = depth[n] + (1 if (kind[n] == DECISION and player[n] == b) else 0)
        f = first_child[n]
        for i in range(num_children[n]):
            depth[f + i] = d
        if d > top:
            top = d
    return top


@jit
def _best_response(kind, player, infoset, first_child, num_children, edge_prob, payoff,
                   infoset_offset, infoset_num_actions, strategy, b, order, level_start,
                   reach, value, action_value, best):
    """Value of a best response of player b to the other player's `strategy`.

    `order` lists nodes by decreasing b-depth (ids increasing within a depth) and
    `level_start[d]` where depth d begins in it. Deeper b-infosets are decided before
    shallower ones, which is exact under perfect recall. `best[s]` receives b's choice.
    """
    sign = 1.0 if b == 0 else -1.0
    n_nodes = kind.shape[0]
    reach[0] = 1.0
    for n in range(n_nodes):  # chance x opponent reach
        k = kind[n]
        if k == TERMINAL:
            continue
        f = first_child[n]
        for i in range(num_children[n]):
            if k == CHANCE:
                reach[f + i] = reach[n] * edge_prob[f + i]
            elif player[n] == b:
                reach[f + i] = reach[n]
            else:
                reach[f + i] = reach[n] * strategy[infoset_offset[infoset[n]] + i]
    levels = level_start.shape[0] - 1
    for d in range(levels - 1, -1, -1):
        lo = level_start[d]
        hi = level_start[d + 1]
        # b's decisions at this depth: their children (depth d + 1) are valued.
        for j in range(lo, hi):
            n = order[j]
            if kind[n] == DECISION and player[n] == b:
                off = infoset_offset[infoset[n]]
                f = first_child[n]
                for i in range(num_children[n]):
                    action_value[off + i] += reach[n] * value[f + i]
        for j in range(lo, hi):
            n = order[j]
            if kind[n] == DECISION and player[n] == b:
                s = infoset[n]
                if best[s] < 0:
                    off = infoset_offset[s]
                    top = 0
                    for i in range(1, infoset_num_actions[s]):
                        if action_value[off + i] > action_value[off + top] + 1e-15:
                            top = i
                    best[s] = top
                value[n] = value[first_child[n] + best[s]]
        # Everything else at this depth, bottom-up.
        for j in range(hi - 1, lo - 1, -1):
            n = order[j]
            k = kind[n]
            if k == TERMINAL:
                value[n] = sign * payoff[n]
            elif k == CHANCE:
                f = first_child[n]
                v = 0.0
                for i in range(num_children[n]):
                    v += edge_prob[f + i] * value[f + i]
                value[n] = v
            elif player[n] != b:
                f = first_child[n]
                off = infoset_offset[infoset[n]]
                v = 0.0
                for i in range(num_children[n]):
                    v += strategy[off + i] * value[f + i]
                value[n] = v
    return value[0]
