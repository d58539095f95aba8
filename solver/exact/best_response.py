"""Exact best responses, exploitability and game value over a FlatTree (numba)."""

from __future__ import annotations

import dataclasses

import numpy as np

from solver.exact import _kernels as kern
from solver.exact.tree import FlatTree


@dataclasses.dataclass(frozen=True)
class Exploitability:
    """How far a strategy profile is from equilibrium, in player 0's payoff units."""

    value: float            # player 0's expected payoff under the profile
    best_response: tuple[float, float]  # each player's best-response value vs the other
    nash_conv: float        # sum of best-response gains
    exploitability: float   # nash_conv / 2 (OpenSpiel's pyspiel.exploitability)


class BestResponder:
    """Precomputes, per player, the depth ordering the best-response kernel walks."""

    def __init__(self, tree: FlatTree):
        self.tree = tree
        n = tree.num_nodes
        self._orders = []
        depth = np.empty(n, dtype=np.int32)
        for b in (0, 1):
            top = kern._own_depth(tree.kind, tree.player, tree.first_child,
                                  tree.num_children, b, depth)
            # Nodes grouped by b-depth (ids increasing within a depth); depth d is
            # order[level_start[d]:level_start[d + 1]].
            order = np.argsort(depth, kind="stable").astype(np.int64)
            level_start = np.concatenate(
                ([0], np.cumsum(np.bincount(depth, minlength=top + 1)))).astype(np.int64)
            self._orders.append((order, level_start))
        self._reach = np.empty(n)
        self._value = np.empty(n)

    def best_response(self, strategy: np.ndarray, player: int) -> tuple[float, np.ndarray]:
        """Value of `player`'s best response to the other's part of `strategy`, and the
        chosen action index per infoset (-1 at the other player's infosets)."""
        t = self.tree
        check_strategy(t, strategy)
        if player not in (0, 1):
            raise ValueError(f"player must be 0 or 1 (got {player})")
        order, level_start = self._orders[player]
        best = np.full(t.num_infosets, -1, dtype=np.int64)
        action_value = np.zeros(t.num_action_slots)
        value = _best_response_walk(t, strategy, player, order, level_start, self._reach,
                                    self._value, action_value, best)
        return value, best

    def evaluate(self, strategy: np.ndarray) -> Exploitability:
        check_strategy(self.tree, strategy)
        v = expected_value(self.tree, strategy)
        br0, _ = self.best_response(strategy, 0)
        br1, _ = self.best_response(strategy, 1)
        nash_conv = br0 + br1
        return Exploitability(v, (br0, br1), nash_conv, nash_conv / 2)


def _best_response_walk(t, strategy, player, order, level_start, reach, value,
                        action_value, best):
    return kern._best_response(t.kind, t.player, t.infoset, t.first_child, t.num_children,
                               t.edge_prob, t.payoff, t.infoset_offset,
                               t.infoset_num_actions, strategy, player, order,
                               level_start, reach, value, action_value, best)


def node_values(tree: FlatTree, strategy: np.ndarray) -> np.ndarray:
    """Player 0's expected payoff at every node when chance and both players follow
    `strategy` (the root's is expected_value)."""
    check_strategy(tree, strategy)
    value = np.empty(tree.num_nodes)
    kern._expected_value(tree.kind, tree.infoset, tree.first_child, tree.num_children,
                         tree.edge_prob, tree.payoff, tree.infoset_offset, strategy, value)
    return value


def expected_value(tree: FlatTree, strategy: np.ndarray) -> float:
    """Player 0's expected payoff when both players follow `strategy`."""
    return float(node_values(tree, strategy)[0])


def exploitability(tree: FlatTree, strategy: np.ndarray) -> Exploitability:
    return BestResponder(tree).evaluate(strategy)


def check_strategy(tree: FlatTree, strategy: np.ndarray) -> None:
    """A probability per action slot, each infoset's summing to 1; a clear error if not."""
    if not isinstance(strategy, np.ndarray) or strategy.dtype != np.float64:
        raise ValueError(f"a strategy must be a float64 numpy array (got "
                         f"{type(strategy).__name__} {getattr(strategy, 'dtype', '')})")
    if strategy.shape != (tree.num_action_slots,):
        raise ValueError(f"a strategy needs one probability per action slot "
                         f"({tree.num_action_slots}), got shape {strategy.shape}")
    sums = np.add.reduceat(strategy, tree.infoset_offset)
    if not np.all(np.isfinite(strategy)):
        raise ValueError(f"strategy has a non-finite probability at action slot "
                         f"{int(np.flatnonzero(~np.isfinite(strategy))[0])}")
    if np.any(strategy < -1e-12) or np.any(np.abs(sums - 1) > 1e-6):
        bad = int(np.argmax(np.abs(sums - 1)))
        raise ValueError(f"strategy probabilities of infoset {bad} sum to {sums[bad]}, not 1")
