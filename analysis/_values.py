"""Kernels for analysis.values: reach probabilities of every node of a solved tree and,
per infoset, the mover's expected value of each action. Private: call analysis.values."""

from __future__ import annotations

from collections import namedtuple

from game_def.kernels import jit
from solver.exact.tree import CHANCE, DECISION, TERMINAL

# A FlatTree's arrays as these kernels read them (solver.exact.tree describes each).
Tree = namedtuple("Tree", ["kind", "player", "infoset", "first_child", "num_children",
                           "edge_prob", "infoset_offset"])
# Per node: the probability of reaching it, and the same without player 0's (without0)
# or player 1's (without1) own probabilities: the counterfactual weights.
Reach = namedtuple("Reach", ["reach", "without0", "without1"])
# Per infoset s of player p: weight[s] = sum of without_p over its nodes,
# weighted_value[slot of action i] = sum of without_p * (p's value after action i),
# infoset_reach[s] = sum of reach over its nodes.
InfosetSums = namedtuple("InfosetSums", ["weight", "weighted_value", "infoset_reach"])


def tree_arrays(tree) -> Tree:
    """The kernels' view of a FlatTree."""
    return Tree(tree.kind, tree.player, tree.infoset, tree.first_child, tree.num_children,
                tree.edge_prob, tree.infoset_offset)


@jit
def _reach(tree, strategy, out):
    """Forward pass (parents before children) into `out` (a Reach): `reach` is the
    probability of reaching a node when chance and both players follow `strategy`;
    `without{p}` leaves player p's own probabilities out (the counterfactual weight of
    p's infosets)."""
    kind, player, infoset, first_child = tree.kind, tree.player, tree.infoset, tree.first_child
    num_children, edge_prob, infoset_offset = (tree.num_children, tree.edge_prob,
                                               tree.infoset_offset)
    reach, without0, without1 = out.reach, out.without0, out.without1
    reach[0] = 1.0
    without0[0] = 1.0
    without1[0] = 1.0
    for n in range(kind.shape[0]):
        kn = kind[n]
        if kn == TERMINAL:
            continue
        f = first_child[n]
        for i in range(num_children[n]):
            c = f + i
            if kn == CHANCE:
                w = edge_prob[c]
                reach[c] = reach[n] * w
                without0[c] = without0[n] * w
                without1[c] = without1[n] * w
            else:
                p = strategy[infoset_offset[infoset[n]] + i]
                reach[c] = reach[n] * p
                if player[n] == 0:
                    without0[c] = without0[n]
                    without1[c] = without1[n] * p
                else:
                    without0[c] = without0[n] * p
                    without1[c] = without1[n]


@jit
def _infoset_sums(tree, value, reach, out):
    """Adds into `out` (an InfosetSums) the sums over each infoset's nodes, from their
    `reach` (a Reach) and `value` (player 0's value of each node)."""
    kind, player, infoset, first_child = tree.kind, tree.player, tree.infoset, tree.first_child
    num_children, infoset_offset = tree.num_children, tree.infoset_offset
    without0, without1 = reach.without0, reach.without1
    weight, weighted_value, infoset_reach = out.weight, out.weighted_value, out.infoset_reach
    for n in range(kind.shape[0]):
        if kind[n] != DECISION:
            continue
        s = infoset[n]
        p = player[n]
        w = without0[n] if p == 0 else without1[n]
        sign = 1.0 if p == 0 else -1.0
        weight[s] += w
        infoset_reach[s] += reach.reach[n]
        off = infoset_offset[s]
        f = first_child[n]
        for i in range(num_children[n]):
            weighted_value[off + i] += w * sign * value[f + i]
