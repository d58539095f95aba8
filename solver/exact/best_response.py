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
    """Exact best responses over one tree.

    The depth ordering the kernel walks is recomputed for each best response into
    scratch memory (4 bytes a node for the order, 4 for the depths) rather than kept
    for both players. Given a `CFRSolver`, it borrows the solver's arrays (own reach
    for the ordering, reach/value per node, the current strategy as action values) and
    reads the average strategy straight from the strategy sums (`evaluate_solver`), so
    measuring exploitability during a solve allocates nothing per node.
    """

    def __init__(self, tree: FlatTree, solver=None):
        self.tree = tree
        self.solver = solver
        n = tree.num_nodes
        self._ts = kern.tree_struct(tree)
        if solver is not None:
            self._scratch = solver._state.reach_own      # 8 bytes a node
            self._rv = solver._state.reach_value
        else:
            self._scratch = np.empty(n)
            self._rv = np.empty(n)
        ints = self._scratch.view(np.int32)
        self._order, self._depth = ints[:n], ints[n:2 * n]

    def _walk(self, strategy: np.ndarray, normalise: bool, player: int,
              action_value: np.ndarray) -> tuple[float, np.ndarray]:
        top = kern._own_depth(self._ts, player, self._depth)
        level_start = np.zeros(top + 2, dtype=np.int64)
        kern._order_by_depth(self._depth, top, self._order, level_start)
        best = np.full(self.tree.num_infosets, -1, dtype=np.int8)
        action_value[:] = 0.0
        buf = kern.BRBuffers(self._order, level_start, self._rv, action_value, best)
        return float(kern._best_response(self._ts, strategy, normalise, player, buf)), best

    def best_response(self, strategy: np.ndarray, player: int) -> tuple[float, np.ndarray]:
        """Value of `player`'s best response to the other's part of `strategy`, and the
        chosen action index per infoset (int8; -1 at the other player's infosets)."""
        t = self.tree
        check_strategy(t, strategy)
        if player not in (0, 1):
            raise ValueError(f"player must be 0 or 1 (got {player})")
        action_value = np.empty(t.num_action_slots)
        try:
            return self._walk(strategy, False, player, action_value)
        finally:
            self._restore()

    def evaluate(self, strategy: np.ndarray) -> Exploitability:
        check_strategy(self.tree, strategy)
        action_value = np.empty(self.tree.num_action_slots)
        try:
            return self._evaluate(strategy, False, action_value)
        finally:
            self._restore()

    def evaluate_solver(self) -> Exploitability:
        """Exploitability of the solver's average strategy (its normalised strategy
        sums), equal to evaluate(solver.average_strategy()) up to rounding."""
        s = self.solver
        try:
            return self._evaluate(s.strategy_sum, True, s.current)
        finally:
            self._restore()

    def _evaluate(self, strategy, normalise, action_value) -> Exploitability:
        v = float(kern._expected_value(self._ts, strategy, normalise, self._rv))
        br0, _ = self._walk(strategy, normalise, 0, action_value)
        br1, _ = self._walk(strategy, normalise, 1, action_value)
        nash_conv = br0 + br1
        return Exploitability(v, (br0, br1), nash_conv, nash_conv / 2)

    def _restore(self) -> None:
        if self.solver is not None:
            self.solver.restore_current()


def node_values(tree: FlatTree, strategy: np.ndarray) -> np.ndarray:
    """Player 0's expected payoff at every node when chance and both players follow
    `strategy` (the root's is expected_value)."""
    check_strategy(tree, strategy)
    value = np.empty(tree.num_nodes)
    kern._expected_value(kern.tree_struct(tree), strategy, False, value)
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
