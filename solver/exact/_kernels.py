"""numba kernels over a FlatTree: CFR-family iterations, expected values, best responses.

Private: `solver.exact.cfr` and `solver.exact.best_response` validate inputs and call these. Twins in
`tests/naive_solver.py` (recursive, dict-based) check them.

Kernels take a few structures (namedtuples, which numba compiles as typed records):
`Tree` (the FlatTree's node and infoset arrays), `CFRState` (what the solver iterates on),
`Rule` (the update rule and its discount parameters), `BRBuffers` (the best response's
working arrays). A CFR pass is a top-down loop over the top of the tree (node ranges,
`ranges[i] = lo, hi`) and depth-first walks from given roots, so that the solver can
hand disjoint subtrees to two threads (solver.exact.cfr.Schedule).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from game_def.kernels import jit

TERMINAL, CHANCE, DECISION = 0, 1, 2

# Update rules (solver.exact.cfr.Algorithm.rule)
RULE_CFR = 0        # regret sum, uniform average
RULE_CFR_PLUS = 1   # regret sum floored at 0, average weighted by t
RULE_DISCOUNTED = 2  # DCFR(alpha, beta, gamma); linear CFR is DCFR(1, 1, 1)
RULE_PCFR_PLUS = 3  # predictive CFR+: floored regrets, prediction = last regret, t^2 average

Tree = namedtuple("Tree", ["kind", "player", "infoset", "first_child", "num_children",
                           "edge_prob", "payoff", "infoset_offset", "infoset_num_actions"])
# Per action slot: current strategy, cumulative regret, prediction (PCFR+ only, else
# empty), strategy sum, this pass's regret. (Adding a pass's regrets straight into the
# cumulative ones would save a slot array but changes CFR+: a sum that should cancel to
# exactly 0 comes out as +-1e-17, and regret matching+ turns a positive crumb into a pure
# strategy; measured 7x worse exploitability after 300 iterations on a small deck.)
# Per node: own reach, and one array that holds the
# others' reach (chance x opponent) until the backward pass overwrites it with the
# node's value (a node's reach is read just before its value is written). Per infoset:
# `touched`, TOUCHED once this pass's walk added terms there, LAST if it did last pass
# (PCFR+), ALWAYS for the infosets the update always visits.
CFRState = namedtuple("CFRState", ["current", "regret", "prediction", "strategy_sum",
                                   "instant", "reach_own", "reach_value", "touched"])
TOUCHED, ALWAYS, LAST = 1, 2, 4
# rule: RULE_*; t: iteration; alpha, beta, gamma: DCFR; avg_weight: weight of this
# iteration's strategy in the average.
Rule = namedtuple("Rule", ["rule", "t", "alpha", "beta", "gamma", "avg_weight"])
# Best response of one player: nodes by decreasing own depth (`order`, `level_start`),
# reach then value per node (`reach_value`), per slot the action values, per infoset the
# chosen action.
BRBuffers = namedtuple("BRBuffers", ["order", "level_start", "reach_value", "action_value",
                                     "best"])


def tree_struct(tree, p: int = 0) -> Tree:
    """The kernels' view of a FlatTree for player p's passes and best responses.

    The kernels value a terminal as `sign(p) * payoff` (sign +1 for player 0, -1 for any
    other), which in a two-player zero-sum tree is p's payoff. In a tree that stores
    every player's payoff (`payoffs`, three or more players), p's view holds
    `sign(p) * payoffs[p]`, so the same arithmetic yields p's payoff; every other
    player's decisions are then "the others'" (their strategies weigh reaches and
    values), which is what N-player CFR and best responses need."""
    payoff = tree.payoff
    if tree.payoffs is not None:
        payoff = tree.payoffs[p] if p == 0 else -tree.payoffs[p]
    return Tree(tree.kind, tree.player, tree.infoset, tree.first_child, tree.num_children,
                tree.edge_prob, payoff, tree.infoset_offset, tree.infoset_num_actions)


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
def _start_pass(cfr):
    cfr.reach_own[0] = 1.0
    cfr.reach_value[0] = 1.0


@jit
def _reach_down(tree, cfr, p, ranges):
    """Top-down half of player p's CFR pass over `ranges` (ascending): each node gives
    its children their own reach and the others' reach."""
    kind, first_child, num_children = tree.kind, tree.first_child, tree.num_children
    edge_prob, current = tree.edge_prob, cfr.current
    player, infoset, infoset_offset = tree.player, tree.infoset, tree.infoset_offset
    reach_own, reach_other = cfr.reach_own, cfr.reach_value
    for r in range(ranges.shape[0]):
        for n in range(ranges[r, 0], ranges[r, 1]):
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


# What a level of the walk's stack holds (`_walk`).
_CHANCE_LEVEL, _OTHER_LEVEL, _MINE_LEVEL = 0, 1, 2


@jit
def _walk(tree, cfr, p, rule, roots, cut, depth, width):
    """Bottom-up half of player p's pass, depth first from each of `roots` (whose reaches
    the top-down half wrote): node values for p (sign +1 for player 0, -1 for player 1:
    payoffs are player 0's), counterfactual regrets into `instant` and avg_weight * own
    reach * current strategy into `strategy_sum`, at p's infosets. Each root's value is
    written over its reach in `reach_value`.

    Reaches are carried down the walk, so a subtree that neither p nor anyone else
    reaches (both reaches 0) is never entered: its value is multiplied by zero in every
    update that could read it (docs/solver.md). At level `cut` below a root (-1: none)
    children are not entered either: an earlier walk valued them, and their values are
    read from `reach_value` (the two-thread schedule). `depth`: the most levels below a
    root; `width`: the most children of a node (the stack's sizes).

    Per node the arithmetic is a plain backward pass's (children in order, the same
    products); what the walk orders is the nodes of one infoset adding their terms to a
    slot: depth-first post-order, as a recursive CFR (OpenSpiel's, the twins') does."""
    kind, first_child, num_children = tree.kind, tree.first_child, tree.num_children
    edge_prob, payoff, current = tree.edge_prob, tree.payoff, cfr.current
    reach_own, value = cfr.reach_own, cfr.reach_value
    instant, strategy_sum, touched = cfr.instant, cfr.strategy_sum, cfr.touched
    player, infoset, infoset_offset = tree.player, tree.infoset, tree.infoset_offset
    sign = 1.0 if p == 0 else -1.0
    avg_weight = rule.avg_weight
    # Per level: the node's first child, child count, slot offset, what it is, its own
    # and others' reach, its value so far, its next child, the weight of the child being
    # walked; at p's decisions the children's values.
    levels = depth + 1
    s_first = np.empty(levels, dtype=np.int64)
    s_count = np.empty(levels, dtype=np.int64)
    s_off = np.empty(levels, dtype=np.int64)
    s_set = np.empty(levels, dtype=np.int64)
    s_what = np.empty(levels, dtype=np.int8)
    s_ro = np.empty(levels)
    s_rx = np.empty(levels)
    s_v = np.empty(levels)
    s_next = np.empty(levels, dtype=np.int64)
    s_q = np.empty(levels)
    child_value = np.empty((levels, width))
    for j in range(roots.shape[0]):
        r = roots[j]
        if kind[r] == TERMINAL:
            value[r] = sign * np.float64(payoff[r])
            continue
        ro = reach_own[r]
        rx = value[r]  # still the others' reach: read before the value is written
        if ro == 0.0 and rx == 0.0:
            value[r] = 0.0
            continue
        # The level being worked on lives in locals (the stack arrays hold the levels
        # above it): stores to the slot arrays cannot then force reloads of it.
        d = 0
        n = r
        while True:
            # Enter n (reached, not terminal) at level d.
            first = first_child[n]
            count = num_children[n]
            own_reach = ro
            other_reach = rx
            v = 0.0
            i = 0
            s = 0
            off = 0
            if kind[n] == CHANCE:
                what = _CHANCE_LEVEL
            else:
                s = infoset[n]
                off = infoset_offset[s]
                what = _MINE_LEVEL if player[n] == p else _OTHER_LEVEL
            descend = False
            while True:
                if i < count:
                    c = first + i
                    if what == _CHANCE_LEVEL:
                        q = edge_prob[c]
                        ro = own_reach
                        rx = other_reach * q
                    elif what == _MINE_LEVEL:
                        q = current[off + i]
                        ro = own_reach * q
                        rx = other_reach
                    else:
                        q = current[off + i]
                        ro = own_reach
                        rx = other_reach * q
                    if d == cut:
                        val = value[c]
                    elif kind[c] == TERMINAL:
                        val = sign * np.float64(payoff[c])
                    elif ro == 0.0 and rx == 0.0:
                        val = 0.0
                    else:  # enter c: keep this level on the stack
                        s_first[d] = first
                        s_count[d] = count
                        s_off[d] = off
                        s_set[d] = s
                        s_what[d] = what
                        s_ro[d] = own_reach
                        s_rx[d] = other_reach
                        s_v[d] = v
                        s_next[d] = i
                        s_q[d] = q
                        d += 1
                        n = c
                        descend = True
                        break
                    v += q * val
                    if what == _MINE_LEVEL:
                        child_value[d, i] = val
                    i += 1
                    continue
                # Every child valued: the node is done.
                if what == _MINE_LEVEL:
                    # A zero reach makes its terms exactly +-0, which leave a slot's sum
                    # as it was (a sum that starts at +0 never becomes -0): skipped.
                    if other_reach != 0.0:
                        for a in range(count):
                            instant[off + a] += other_reach * (child_value[d, a] - v)
                        if (touched[s] & (TOUCHED | ALWAYS)) == 0:  # one thread owns s
                            touched[s] |= TOUCHED
                    if own_reach != 0.0:
                        for a in range(count):
                            strategy_sum[off + a] += avg_weight * own_reach * current[off + a]
                if d == 0:
                    value[r] = v
                    break
                # Back to the parent's level, its child i valued v.
                d -= 1
                val = v
                first = s_first[d]
                count = s_count[d]
                off = s_off[d]
                s = s_set[d]
                what = s_what[d]
                own_reach = s_ro[d]
                other_reach = s_rx[d]
                i = s_next[d]
                v = s_v[d] + s_q[d] * val
                if what == _MINE_LEVEL:
                    child_value[d, i] = val
                i += 1
            if not descend:
                break


@jit
def _update(tree, cfr, rule, own_infosets, lo, hi):
    """Fold this iteration's regrets at own_infosets[lo:hi] (the updating player's) into
    the cumulative ones and recompute the current strategy there; discount as the rule
    says.

    CFR, CFR+ and PCFR+ skip the infosets this pass's walks never reached (and, PCFR+,
    the last pass's neither): their pass regrets are all exactly 0, so the update would
    write back the same regrets and the same strategy. The discounted rules change every
    slot and visit all."""
    t = rule.t
    pos_discount = t ** rule.alpha / (t ** rule.alpha + 1.0)
    neg_discount = t ** rule.beta / (t ** rule.beta + 1.0)
    avg_discount = (t / (t + 1.0)) ** rule.gamma
    predictive = rule.rule == RULE_PCFR_PLUS
    floored = rule.rule == RULE_CFR_PLUS or predictive
    discounted = rule.rule == RULE_DISCOUNTED
    regret, instant, prediction = cfr.regret, cfr.instant, cfr.prediction
    strategy_sum, current, touched = cfr.strategy_sum, cfr.current, cfr.touched
    infoset_offset, infoset_num_actions = tree.infoset_offset, tree.infoset_num_actions
    for j in range(lo, hi):
        s = own_infosets[j]
        mark = touched[s]
        if mark == 0 and not discounted:
            continue
        touched[s] = (mark & ALWAYS) | (LAST if predictive and (mark & TOUCHED) != 0 else 0)
        off = infoset_offset[s]
        k = infoset_num_actions[s]
        for i in range(k):
            r = regret[off + i] + instant[off + i]
            if floored:
                r = max(r, 0.0)
            elif discounted:
                r *= pos_discount if r > 0.0 else neg_discount
                strategy_sum[off + i] *= avg_discount
            regret[off + i] = r
            if predictive:
                prediction[off + i] = instant[off + i]
            instant[off + i] = 0.0
        _regret_matching(regret, prediction, predictive, off, k, current)


@jit
def _pass_top_down(tree, cfr, p, top):
    """Start player p's pass: the root's reaches, then the top ranges top-down (their
    children's reaches, the walks' roots among them)."""
    _start_pass(cfr)
    _reach_down(tree, cfr, p, top)


@jit
def _pass_group(tree, cfr, p, rule, roots, own, depth, width):
    """One thread's share of p's pass: walks from its subtrees' roots, then the regret
    update of p's infosets that lie wholly inside them (`own`)."""
    _walk(tree, cfr, p, rule, roots, -1, depth, width)
    _update(tree, cfr, rule, own, 0, own.shape[0])


@jit
def _pass_top_up(tree, cfr, p, rule, cut, own, depth, width):
    """End p's pass: the walk from the root down to level `cut` (the subtrees' values
    below it are the groups'; -1: the whole tree), then the update of p's other
    infosets."""
    _walk(tree, cfr, p, rule, np.zeros(1, dtype=np.int64), cut, depth, width)
    _update(tree, cfr, rule, own, 0, own.shape[0])


@jit
def _mark_infosets(tree, ranges, p, bit, marks):
    """marks[s] |= bit for every infoset s of p with a node in `ranges`."""
    for r in range(ranges.shape[0]):
        for n in range(ranges[r, 0], ranges[r, 1]):
            if tree.kind[n] == DECISION and tree.player[n] == p:
                marks[tree.infoset[n]] |= bit


@jit
def _rematch(tree, cfr, predictive):
    """Recompute the current strategy everywhere from the regrets (after the best
    response borrowed `current` as scratch)."""
    for s in range(tree.infoset_offset.shape[0]):
        _regret_matching(cfr.regret, cfr.prediction, predictive, tree.infoset_offset[s],
                         tree.infoset_num_actions[s], cfr.current)


@jit
def _prob(strategy, normalise, off, k, i):
    """Probability of slot off + i: `strategy` itself, or when `normalise`, its share of
    the infoset's sum (uniform if zero), as solver.exact.cfr.normalise computes it."""
    if not normalise:
        return strategy[off + i]
    total = 0.0
    for j in range(k):
        total += strategy[off + j]
    return strategy[off + i] / total if total > 0.0 else 1.0 / k


@jit
def _normalise(tree, weights, out):
    """Per infoset, weights / their sum (uniform where the sum is zero)."""
    infoset_offset, infoset_num_actions = tree.infoset_offset, tree.infoset_num_actions
    for s in range(infoset_offset.shape[0]):
        off = infoset_offset[s]
        k = infoset_num_actions[s]
        for i in range(k):
            out[off + i] = _prob(weights, True, off, k, i)


@jit
def _expected_value(tree, strategy, normalise, value):
    """Player 0's expected payoff when both players follow `strategy`."""
    kind, first_child, num_children = tree.kind, tree.first_child, tree.num_children
    payoff, edge_prob = tree.payoff, tree.edge_prob
    infoset, infoset_offset = tree.infoset, tree.infoset_offset
    for n in range(kind.shape[0] - 1, -1, -1):
        k = kind[n]
        if k == TERMINAL:
            value[n] = payoff[n]
            continue
        f = first_child[n]
        c = num_children[n]
        v = 0.0
        if k == CHANCE:
            for i in range(c):
                v += edge_prob[f + i] * value[f + i]
        else:
            off = infoset_offset[infoset[n]]
            for i in range(c):
                v += _prob(strategy, normalise, off, c, i) * value[f + i]
        value[n] = v
    return value[0]


@jit
def _profile_reach(tree, strategy, normalise, reach):
    """Each node's probability when chance and every player follow `strategy` (its
    per-infoset shares if `normalise`): a top-down pass. Terminal payoffs weighted by it
    give each player's expected payoff, which in an N-player tree is N values."""
    kind, first_child, num_children = tree.kind, tree.first_child, tree.num_children
    edge_prob, infoset, infoset_offset = tree.edge_prob, tree.infoset, tree.infoset_offset
    reach[0] = 1.0
    for n in range(kind.shape[0]):
        k = kind[n]
        if k == TERMINAL:
            continue
        f = first_child[n]
        c = num_children[n]
        if k == CHANCE:
            for i in range(c):
                reach[f + i] = reach[n] * edge_prob[f + i]
        else:
            off = infoset_offset[infoset[n]]
            for i in range(c):
                reach[f + i] = reach[n] * _prob(strategy, normalise, off, c, i)


@jit
def _own_depth(tree, b, depth):
    """Number of b's decisions strictly above each node (equal across an infoset)."""
    kind, player = tree.kind, tree.player
    first_child, num_children = tree.first_child, tree.num_children
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
def _order_by_depth(depth, top, order, level_start):
    """Counting sort of node ids by depth, ids increasing within a depth (what
    np.argsort(depth, kind='stable') gives); depth d is
    order[level_start[d]:level_start[d + 1]]."""
    level_start[:] = 0
    for n in range(depth.shape[0]):
        level_start[depth[n] + 1] += 1
    for d in range(top + 1):
        level_start[d + 1] += level_start[d]
    fill = level_start[:top + 1].copy()
    for n in range(depth.shape[0]):
        d = depth[n]
        order[fill[d]] = n
        fill[d] += 1


@jit
def _best_response(tree, strategy, normalise, b, buf):
    """Value of a best response of player b to the other player's `strategy` (its
    per-infoset shares if `normalise`).

    `buf.order` lists nodes by b-depth (ids increasing within a depth) and
    `buf.level_start[d]` where depth d begins in it. Deeper b-infosets are decided before
    shallower ones, which is exact under perfect recall. `buf.best[s]` receives b's
    choice (it must hold -1 at the start; `buf.action_value` zeros at b's slots).
    """
    kind, player, infoset = tree.kind, tree.player, tree.infoset
    first_child, num_children = tree.first_child, tree.num_children
    edge_prob, infoset_offset = tree.edge_prob, tree.infoset_offset
    order, level_start = buf.order, buf.level_start
    rv, action_value, best = buf.reach_value, buf.action_value, buf.best
    payoff, infoset_num_actions = tree.payoff, tree.infoset_num_actions
    sign = 1.0 if b == 0 else -1.0
    n_nodes = kind.shape[0]
    rv[0] = 1.0
    for n in range(n_nodes):  # chance x opponent reach
        k = kind[n]
        if k == TERMINAL:
            continue
        f = first_child[n]
        c = num_children[n]
        if k == CHANCE:
            for i in range(c):
                rv[f + i] = rv[n] * edge_prob[f + i]
        elif player[n] == b:
            for i in range(c):
                rv[f + i] = rv[n]
        else:
            off = infoset_offset[infoset[n]]
            for i in range(c):
                rv[f + i] = rv[n] * _prob(strategy, normalise, off, c, i)
    # From here on rv[n] is n's reach until n is valued, then its value: b's decisions
    # at a depth read their reach (first loop) before any of them is valued (second).
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
                reach = rv[n]
                for i in range(num_children[n]):
                    action_value[off + i] += reach * rv[f + i]
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
                rv[n] = rv[first_child[n] + best[s]]
        # Everything else at this depth, bottom-up.
        for j in range(hi - 1, lo - 1, -1):
            n = order[j]
            k = kind[n]
            if k == TERMINAL:
                rv[n] = sign * np.float64(payoff[n])
            elif k == CHANCE:
                f = first_child[n]
                v = 0.0
                for i in range(num_children[n]):
                    v += edge_prob[f + i] * rv[f + i]
                rv[n] = v
            elif player[n] != b:
                f = first_child[n]
                c = num_children[n]
                off = infoset_offset[infoset[n]]
                v = 0.0
                for i in range(c):
                    v += _prob(strategy, normalise, off, c, i) * rv[f + i]
                rv[n] = v
    return rv[0]


# ----- two threads: disjoint subtrees -----------------------------------------------------

@jit
def _subtree_ends(tree, depth, last):
    """Absolute depth of every node, and the last id in its subtree (the builders number
    the descendants of a node contiguously: first_child[n] .. last[n])."""
    kind = tree.kind
    n_nodes = kind.shape[0]
    depth[0] = 0
    for n in range(n_nodes):
        if kind[n] != TERMINAL:
            f = tree.first_child[n]
            for i in range(tree.num_children[n]):
                depth[f + i] = depth[n] + 1
    for n in range(n_nodes - 1, -1, -1):
        m = n
        if kind[n] != TERMINAL:
            f = tree.first_child[n]
            for i in range(tree.num_children[n]):
                if last[f + i] > m:
                    m = last[f + i]
        last[n] = m


@jit
def _is_contiguous(tree, last):
    """Whether every node's descendants are exactly first_child[n] .. last[n] (checked
    by counting: a subtree of s nodes spans s ids)."""
    kind = tree.kind
    n_nodes = kind.shape[0]
    size = np.ones(n_nodes, dtype=np.int64)
    for n in range(n_nodes - 1, -1, -1):
        if kind[n] != TERMINAL:
            f = tree.first_child[n]
            for i in range(tree.num_children[n]):
                size[n] += size[f + i]
            if last[n] - tree.first_child[n] + 1 != size[n] - 1:
                return False
    return True


@jit
def _frontier(tree, depth, last, d):
    """Non-terminal nodes at depth d with their descendant ranges [lo, hi)."""
    count = 0
    for n in range(tree.kind.shape[0]):
        if depth[n] == d and tree.kind[n] != TERMINAL:
            count += 1
    out = np.empty((count, 2), dtype=np.int64)
    j = 0
    for n in range(tree.kind.shape[0]):
        if depth[n] == d and tree.kind[n] != TERMINAL:
            out[j, 0] = tree.first_child[n]
            out[j, 1] = last[n] + 1
            j += 1
    return out


@jit
def _find(parent, i):
    while parent[i] != i:
        parent[i] = parent[parent[i]]
        i = parent[i]
    return i


@jit
def _components(tree, ranges, p, owner):
    """Union-find over the subtrees `ranges`: two that hold nodes of one of p's infosets
    are joined. Returns each subtree's component root. `owner` (per infoset, -1) is
    scratch."""
    m = ranges.shape[0]
    parent = np.arange(m)
    for j in range(m):
        for n in range(ranges[j, 0], ranges[j, 1]):
            if tree.kind[n] == DECISION and tree.player[n] == p:
                s = tree.infoset[n]
                o = owner[s]
                if o < 0:
                    owner[s] = j
                else:
                    a = _find(parent, o)
                    b = _find(parent, j)
                    if a != b:
                        parent[max(a, b)] = min(a, b)
    roots = np.empty(m, dtype=np.int64)
    for j in range(m):
        roots[j] = _find(parent, j)
    return roots
