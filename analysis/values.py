"""Exact expected values and reach probabilities of situations under a solved strategy.

For an exact run (a reduced deck solved by `robinwood solve`), the strategy is played out
on the tree it was solved on: every node gets its reach probability (chance and both
players following the strategy) and its value; every information state gets, for each
of the mover's actions, the mover's expected payoff given what the mover knows (the
nodes of the information state weighted by the probability that chance and the opponent
lead there) when both players follow the strategy afterwards. The strategy explorer
shows these, and prices a player's decision by the difference.

A real history is located on the tree by replaying it through the core; on the
position-symmetric tree (solver.exact.symmetry) its positions are first relabelled in the order
they were first mentioned, which is how that tree numbers them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from game_def import kernels as k
from game_def.core import rules_array
from game_def.variant import Variant
from solver.exact.best_response import check_strategy, node_values
from solver.exact.kernels import expand, initially_mentioned, mentioned_after
from solver.exact.tree import DECISION, FlatTree

from . import _values as kv


@dataclasses.dataclass(frozen=True)
class Situation:
    """What the exact strategy implies at one history of a round."""

    mover: int                 # seat to act; -1 at a chance node, -4 when the round is over
    reach: float               # P(this exact history) when everyone follows the strategy
    situation_reach: float | None  # P(the mover's information state), at decisions
    value: float               # seat 0's expected payoff from here on
    # The mover's expected payoff of each legal action (real action ids), given what the
    # mover knows; None where chance and the opponent never lead there (no weight).
    action_values: dict[int, float] | None
    # The mover's expected payoff of following the strategy at this information state.
    strategy_value: float | None


class StrategyValues:
    """Reach and values of a strategy on its solved tree (exact, two players)."""

    def __init__(self, variant: Variant, tree: FlatTree, strategy: np.ndarray,
                 symmetric: bool = False):
        check_strategy(tree, strategy)
        self.variant, self.tree, self.strategy = variant, tree, strategy
        self.symmetric = symmetric
        self.rules = rules_array(variant)
        self._n = variant.num_positions
        # Positions free..n-1 hold the Traitors, face up from the start (solver.exact.symmetry).
        self._free = self._n - int(variant.counts[k.TRAITOR])
        t = tree
        self.value = node_values(t, strategy)
        self.reach = np.empty(t.num_nodes)
        arrays = kv.tree_arrays(t)
        reach = kv.Reach(self.reach, np.empty(t.num_nodes), np.empty(t.num_nodes))
        kv._reach(arrays, strategy, reach)
        self.weight = np.zeros(t.num_infosets)
        self.weighted_value = np.zeros(t.num_action_slots)
        self.infoset_reach = np.zeros(t.num_infosets)
        kv._infoset_sums(arrays, self.value, reach,
                         kv.InfosetSums(self.weight, self.weighted_value, self.infoset_reach))

    @classmethod
    def from_run(cls, run_dir) -> "StrategyValues":
        """The values of the exact strategy stored in run_dir (rebuilds its tree)."""
        import game_def
        from solver.exact.robinwood_tree import build_robinwood_tree
        from solver.exact.stored import StoredStrategy
        from solver.store import StrategyFileError

        stored = StoredStrategy(run_dir)
        variant = game_def.parse(stored.metadata["variant"])
        symmetric = bool(stored.metadata.get("symmetric"))
        tree = build_robinwood_tree(variant, symmetric=symmetric)
        if tree.num_action_slots != len(stored.strategy):
            raise StrategyFileError(f"the strategy in {run_dir} has {len(stored.strategy)} "
                                    f"action slots but the tree of {variant} has "
                                    f"{tree.num_action_slots}: was it made by another "
                                    f"version?")
        return cls(variant, tree, stored.strategy, symmetric)

    # ----- locating a history on the tree ---------------------------------------------
    def _canonical(self, action: int, mover: int, perm: dict[int, int], touched: int,
                   assign: bool) -> int:
        """The tree's action for a real one: positions relabelled in mention order (the
        first never-mentioned position stands for all of them) on the symmetric tree."""
        n = self._n
        if not self.symmetric or mover == k.CHANCE_PLAYER or action >= 4 * n:
            return action
        verb, pos = divmod(action, n)
        if pos not in perm:
            if pos >= self._free:
                canon = pos  # face up from the start (a Traitor): never relabelled
            else:
                canon = 0
                while (touched >> canon) & 1:
                    canon += 1
            if not assign:
                return verb * n + canon
            perm[pos] = canon
        return verb * n + perm[pos]

    def _walk(self, history: Sequence[int]):
        """(node, real core state, touched mask, relabelling, reach factor) after the real
        `history`. On the symmetric tree the representative action carries the
        probability of every never-mentioned position, which the real game splits
        evenly (solver.exact.symmetry.lift): the factor undoes that for reach."""
        t, rules, n = self.tree, self.rules, self._n
        state = k.initial_state(rules)  # on the tree's labelling
        real = state.copy()
        touched = int(initially_mentioned(state, n))
        perm: dict[int, int] = {}
        node = 0
        factor = 1.0
        actions = np.empty(k.MAX_LEGAL, dtype=np.int64)  # scratch of expand
        probs = np.empty(k.MAX_CHANCE_OUTCOMES + k.MAX_LEGAL, dtype=np.float64)
        for step, a in enumerate(history):
            mover = int(k.current_player(state))
            if mover == k.TERMINAL_PLAYER:
                raise ValueError(f"action {a} at step {step}: the round is already over")
            if (self.symmetric and mover != k.CHANCE_PLAYER and a < 4 * n
                    and a % n < self._free and a % n not in perm):
                mentioned = sum(1 for p in range(self._free) if (touched >> p) & 1)
                factor /= self._free - mentioned
            ca = self._canonical(int(a), mover, perm, touched, assign=True)
            m = expand(state, rules, mover, self.symmetric, touched, actions, probs)
            found = np.flatnonzero(actions[:m] == ca)
            if len(found) == 0:
                raise ValueError(f"action {a} at step {step} is not legal in {self.variant}")
            nxt = state.copy()
            k.apply_action(nxt, rules, ca)
            touched = int(mentioned_after(touched, mover, ca, nxt, n))
            node = int(t.first_child[node]) + int(found[0])
            state = nxt
            k.apply_action(real, rules, int(a))
        return node, real, touched, perm, factor

    def situation(self, history: Sequence[int]) -> Situation:
        """Reach, value and the mover's action values after the real action ids
        `history` (chance outcomes included, as in `pyspiel.State.history()`)."""
        t = self.tree
        node, state, touched, perm, factor = self._walk(history)
        mover = int(k.current_player(state))
        reach, value = float(self.reach[node]) * factor, float(self.value[node])
        if t.kind[node] != DECISION:
            return Situation(mover, reach, None, value, None, None)
        s = int(t.infoset[node])
        off, m = int(t.infoset_offset[s]), int(t.infoset_num_actions[s])
        tree_actions = [int(a) for a in t.infoset_actions[off:off + m]]
        weight = float(self.weight[s])
        action_values = strategy_value = None
        if weight > 0:
            legal = np.empty(k.MAX_LEGAL, dtype=np.int64)
            count = k.legal_actions(state, self.rules, legal)
            action_values = {}
            for a in legal[:count]:
                ca = self._canonical(int(a), mover, dict(perm), touched, assign=False)
                i = tree_actions.index(ca)
                action_values[int(a)] = float(self.weighted_value[off + i]) / weight
            strategy_value = float(self.strategy[off:off + m] @
                                   self.weighted_value[off:off + m]) / weight
        return Situation(mover, reach, float(self.infoset_reach[s]) * factor, value,
                         action_values,
                         strategy_value)
