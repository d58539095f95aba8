"""The full game's sampling scheme (solver/mccfr/_traversal.py) over a FlatTree (numba
kernels).

Probe-sampled external sampling on any two-player zero-sum game given as a FlatTree
(solver.exact.tree; player 1's payoff is minus player 0's `payoff`): Kuhn and Leduc
poker through solver.exact.openspiel_tree, so that the scheme can be checked against
OpenSpiel's external-sampling MCCFR where exact exploitability is cheap. Same rules as
the full game's kernels at two seats: chance and the opponent sampled; every traverser
action valued at every traverser decision, expanded recursively while the branchings
expanded above multiply to at most `max_branching`, else one action followed (current
policy mixed with `exploration` uniform) and the others valued by one probe playout
each; no importance weights; regret-based pruning; the opponent's current policy added
to its average at its decisions. One regret array for both players (infosets are
disjoint).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from game_def.kernels import jit

from solver.mccfr._random import _pick, _uniform
from solver.exact.tree import CHANCE, TERMINAL

MAX_DEPTH = 256
# settings array
T_EXPLORATION = 0
T_MAX_BRANCHING = 1
T_PRUNE_BELOW = 2
T_PRUNE_PROBABILITY = 3
T_SIZE = 4
# per-depth frame kinds
PASS_UP = 0
EXPAND = 1
PROBE = 2

# A FlatTree's arrays as the kernels read them (solver.exact.tree describes each).
Tree = namedtuple("Tree", ["kind", "player", "infoset", "first_child", "num_children",
                           "edge_prob", "payoff", "infoset_offset"])
# What training changes: cumulative regrets and average-strategy sums, one slot per
# (infoset, action) as in FlatTree.infoset_offset.
Sums = namedtuple("Sums", ["regret", "ssum"])
# Scratch space of one traversal: per depth, the current policy (sig), the action
# values (vals) and the frame (kind, action followed); buf for probe playouts.
Frames = namedtuple("Frames", ["sig", "vals", "frames", "buf"])


def tree_arrays(tree) -> Tree:
    """The kernels' view of a FlatTree."""
    return Tree(tree.kind, tree.player, tree.infoset, tree.first_child, tree.num_children,
                tree.edge_prob, tree.payoff, tree.infoset_offset)


@jit
def _chance_child(tree, node, rng):
    r = _uniform(rng)
    acc = 0.0
    first = tree.first_child[node]
    for i in range(tree.num_children[node]):
        acc += tree.edge_prob[first + i]
        if r < acc:
            return first + i
    return first + tree.num_children[node] - 1


@jit
def _current(regret, off, n, out):
    total = 0.0
    for j in range(n):
        if regret[off + j] > 0:
            total += regret[off + j]
    for j in range(n):
        if total > 0:
            out[j] = regret[off + j] / total if regret[off + j] > 0 else 0.0
        else:
            out[j] = 1.0 / n


@jit
def _probe(tree, regret, node, traverser, rng, buf):
    """One playout from `node`, everybody on its current policy: the traverser's payoff."""
    while tree.kind[node] != TERMINAL:
        if tree.kind[node] == CHANCE:
            node = _chance_child(tree, node, rng)
        else:
            n = tree.num_children[node]
            _current(regret, tree.infoset_offset[tree.infoset[node]], n, buf)
            node = tree.first_child[node] + _pick(buf, n, rng)
    return tree.payoff[node] if traverser == 0 else -tree.payoff[node]


@jit
def _traverse(tree, sums, cfg, traverser, rng, ws):
    """One traversal for `traverser` from the root; returns the nodes visited."""
    kind, player, infoset, first_child = tree.kind, tree.player, tree.infoset, tree.first_child
    num_children, payoff, infoset_offset = tree.num_children, tree.payoff, tree.infoset_offset
    regret, ssum = sums.regret, sums.ssum
    sig, vals, frames, buf = ws.sig, ws.vals, ws.frames, ws.buf
    d = 0
    node = 0
    entering = True
    ret = 0.0
    visited = 0
    nodes = np.zeros(MAX_DEPTH, dtype=np.int64)
    branch = np.ones(MAX_DEPTH, dtype=np.int64)
    while True:
        if entering:
            visited += 1
            nodes[d] = node
            if kind[node] == TERMINAL:
                ret = payoff[node] if traverser == 0 else -payoff[node]
                entering = False
                continue
            frames[d, 0] = PASS_UP
            branch[d + 1] = branch[d]
            if kind[node] == CHANCE:
                node = _chance_child(tree, node, rng)
                d += 1
                continue
            n = num_children[node]
            off = infoset_offset[infoset[node]]
            _current(regret, off, n, sig[d])
            if player[node] != traverser:
                for j in range(n):
                    ssum[off + j] += sig[d, j]
                node = first_child[node] + _pick(sig[d], n, rng)
                d += 1
                continue
            for j in range(n):
                vals[d, j] = 0.0
                if (sig[d, j] == 0.0 and regret[off + j] < cfg[T_PRUNE_BELOW]
                        and _uniform(rng) < cfg[T_PRUNE_PROBABILITY]):
                    vals[d, j] = np.nan
            if branch[d] * n <= cfg[T_MAX_BRANCHING]:
                frames[d, 0] = EXPAND
                branch[d + 1] = branch[d] * n
                j = 0
                while np.isnan(vals[d, j]):
                    j += 1
            else:
                frames[d, 0] = PROBE
                if _uniform(rng) < cfg[T_EXPLORATION]:
                    j = min(np.int64(_uniform(rng) * n), n - 1)
                    while np.isnan(vals[d, j]):
                        j = min(np.int64(_uniform(rng) * n), n - 1)
                else:
                    j = _pick(sig[d], n, rng)
                for jj in range(n):
                    if jj != j and not np.isnan(vals[d, jj]):
                        vals[d, jj] = _probe(tree, regret, first_child[node] + jj,
                                             traverser, rng, buf)
            frames[d, 1] = j
            node = first_child[node] + j
            d += 1
            continue
        if d == 0:
            return visited
        d -= 1
        if frames[d, 0] == PASS_UP:
            continue
        node = nodes[d]
        n = num_children[node]
        j = frames[d, 1]
        vals[d, j] = ret
        if frames[d, 0] == EXPAND:
            j += 1
            while j < n and np.isnan(vals[d, j]):
                j += 1
            if j < n:
                frames[d, 1] = j
                node = first_child[node] + j
                d += 1
                entering = True
                continue
        off = infoset_offset[infoset[node]]
        value = 0.0
        for jj in range(n):
            if not np.isnan(vals[d, jj]):
                value += sig[d, jj] * vals[d, jj]
        for jj in range(n):
            if not np.isnan(vals[d, jj]):
                regret[off + jj] += vals[d, jj] - value
        ret = value


@jit
def _run(tree, sums, cfg, iterations, rng, width):
    """`iterations` traversals for each player in turn over `tree` (a Tree), updating
    `sums` (a Sums); returns the nodes visited."""
    ws = Frames(np.zeros((MAX_DEPTH, width)), np.zeros((MAX_DEPTH, width)),
                np.zeros((MAX_DEPTH, 2), dtype=np.int64), np.zeros(width))
    visited = 0
    for _ in range(iterations):
        for traverser in range(2):
            visited += _traverse(tree, sums, cfg, traverser, rng, ws)
    return visited


@jit
def _discount(sums, factor):
    for i in range(len(sums.regret)):
        sums.regret[i] *= factor
        sums.ssum[i] *= factor
