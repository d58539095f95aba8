"""Strategies over a FlatTree as OpenSpiel policies, so that OpenSpiel (and any outside
evaluator) can query and check them on the game's own states."""

from __future__ import annotations

import numpy as np
import pyspiel
from open_spiel.python import policy as os_policy

from solver.exact.tree import FlatTree


class StrategyPolicy(os_policy.Policy):
    """A fixed behaviour strategy looked up by information-state string.

    States whose information state the strategy never saw (off the solved tree) raise
    KeyError naming the string, rather than guessing.
    """

    def __init__(self, game: pyspiel.Game, table: dict[str, dict[int, float]],
                 symmetry=None):
        super().__init__(game, list(range(game.num_players())))
        self.table = table
        # A strategy solved on the position-symmetric tree is keyed by canonical
        # information states and lifted to the real ones (solver.exact.symmetry).
        self.symmetry = symmetry

    @classmethod
    def from_tree(cls, game: pyspiel.Game, tree: FlatTree,
                  strategy: np.ndarray, symmetry=None) -> "StrategyPolicy":
        from solver.exact.best_response import check_strategy

        check_strategy(tree, strategy)
        table = {}
        for s in range(tree.num_infosets):
            off, k = int(tree.infoset_offset[s]), int(tree.infoset_num_actions[s])
            actions = tree.infoset_actions[off:off + k]
            table[tree.key(s)] = {int(a): float(p)
                                  for a, p in zip(actions, strategy[off:off + k])}
        return cls(game, table, symmetry)

    def action_probabilities(self, state, player_id=None):
        player = state.current_player() if player_id is None else player_id
        key = state.information_state_string(player)
        lookup = key if self.symmetry is None else self.symmetry.canonical_key(key)
        try:
            probs = self.table[lookup]
        except KeyError:
            raise KeyError(f"the strategy has no entry for information state {key!r}: "
                           f"is the state from the game the strategy was solved for?") from None
        if self.symmetry is None:
            return dict(probs)
        return self.symmetry.lift(key, state.legal_actions(player), probs)

    def to_dict(self) -> dict[str, list[tuple[int, float]]]:
        """The form pyspiel.exploitability and pyspiel.expected_returns accept."""
        if self.symmetry is not None:
            return self.to_tabular().to_dict()
        return {key: list(probs.items()) for key, probs in self.table.items()}

    def to_tabular(self) -> os_policy.TabularPolicy:
        """As an OpenSpiel TabularPolicy (enumerates every state: small games only)."""
        tabular = os_policy.TabularPolicy(self.game)
        for state in _one_state_per_infoset(self.game):
            key = state.information_state_string()
            row = tabular.action_probability_array[tabular.state_lookup[key]]
            row[:] = 0.0
            for a, p in self.action_probabilities(state).items():
                row[a] = p
        return tabular


def _one_state_per_infoset(game: pyspiel.Game):
    """A representative state of every information state of the game (small games)."""
    seen = set()
    stack = [game.new_initial_state()]
    while stack:
        state = stack.pop()
        if state.is_terminal():
            continue
        if state.is_chance_node():
            stack.extend(state.child(a) for a, _ in state.chance_outcomes())
            continue
        key = state.information_state_string()
        if key not in seen:
            seen.add(key)
            yield state
        stack.extend(state.child(a) for a in state.legal_actions())
