"""Exact best responses, exploitability, NashConv and game values over a FlatTree (numba),
for two players or more."""

from __future__ import annotations

import dataclasses

import numpy as np

from solver.exact import _kernels as kern
from solver.exact.tree import FlatTree


@dataclasses.dataclass(frozen=True)
class Exploitability:
    """How far a strategy profile is from equilibrium, in payoff units.

    `nash_conv` is the sum over players of what each gains by a best response against
    the others' strategies (OpenSpiel's `nash_conv`); `exploitability` is it divided by
    the number of players (OpenSpiel's `exploitability` of a zero-sum game)."""

    value: float            # player 0's expected payoff under the profile
    best_response: tuple[float, ...]  # each player's best-response value vs the others
    nash_conv: float        # sum of best-response gains
    exploitability: float   # nash_conv / players
    values: tuple[float, ...] = ()  # each player's expected payoff under the profile

    @property
    def gains(self) -> tuple[float, ...]:
        """Each player's best-response gain (best response minus its profile value)."""
        return tuple(b - v for b, v in zip(self.best_response, self.values))


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
        self._views = tuple(self._ts if tree.payoffs is None else kern.tree_struct(tree, p)
                            for p in range(tree.num_players))
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
        ts = self._views[player]
        top = kern._own_depth(ts, player, self._depth)
        level_start = np.zeros(top + 2, dtype=np.int64)
        kern._order_by_depth(self._depth, top, self._order, level_start)
        best = np.full(self.tree.num_infosets, -1, dtype=np.int8)
        action_value[:] = 0.0
        buf = kern.BRBuffers(self._order, level_start, self._rv, action_value, best)
        return float(kern._best_response(ts, strategy, normalise, player, buf)), best

    def best_response(self, strategy: np.ndarray, player: int) -> tuple[float, np.ndarray]:
        """Value of `player`'s best response to the others' part of `strategy`, and the
        chosen action index per infoset (int8; -1 at the others' infosets)."""
        t = self.tree
        check_strategy(t, strategy)
        if not 0 <= player < t.num_players:
            raise ValueError(f"player must be in 0..{t.num_players - 1} (got {player})")
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
        t = self.tree
        if t.payoffs is None:
            v = float(kern._expected_value(self._ts, strategy, normalise, self._rv))
            values = (v, -v)
        else:
            values = tuple(float(t.payoffs[p] @ _reach(self._ts, strategy, normalise,
                                                       self._rv))
                           for p in range(t.num_players))
        best = tuple(self._walk(strategy, normalise, p, action_value)[0]
                     for p in range(t.num_players))
        nash_conv = sum(b - v for b, v in zip(best, values))
        return Exploitability(values[0], best, nash_conv, nash_conv / t.num_players,
                              values)

    def _restore(self) -> None:
        if self.solver is not None:
            self.solver.restore_current()


def _reach(ts, strategy: np.ndarray, normalise: bool, out: np.ndarray) -> np.ndarray:
    """Each node's probability under chance and the profile (into `out`)."""
    kern._profile_reach(ts, strategy, normalise, out)
    return out


def player_values(tree: FlatTree, strategy: np.ndarray) -> tuple[float, ...]:
    """Every player's expected payoff when all follow `strategy`."""
    check_strategy(tree, strategy)
    reach = _reach(kern.tree_struct(tree), strategy, False, np.empty(tree.num_nodes))
    return tuple(float(tree.player_payoff(p) @ reach) for p in range(tree.num_players))


def reach_probabilities(tree: FlatTree, strategy: np.ndarray) -> np.ndarray:
    """Each node's probability when chance and every player follow `strategy`."""
    check_strategy(tree, strategy)
    return _reach(kern.tree_struct(tree), strategy, False, np.empty(tree.num_nodes))


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
