"""Strategies over a FlatTree as OpenSpiel policies, so that OpenSpiel (and any outside
evaluator) can query and check them on the game's own states."""

from __future__ import annotations

import numpy as np
import pyspiel
from open_spiel.python import policy as os_policy

from .tree import FlatTree


class StrategyPolicy(os_policy.Policy):
    """A fixed behaviour strategy looked up by information-state string.

    States whose information state the strategy never saw (off the solved tree) raise
    KeyError naming the string, rather than guessing.
    """

    def __init__(self, game: pyspiel.Game, table: dict[str, dict[int, float]]):
        super().__init__(game, list(range(game.num_players())))
        self.table = table

    @classmethod
    def from_tree(cls, game: pyspiel.Game, tree: FlatTree,
                  strategy: np.ndarray) -> "StrategyPolicy":
        from .best_response import check_strategy

        check_strategy(tree, strategy)
        table = {}
        for s in range(tree.num_infosets):
            off, k = int(tree.infoset_offset[s]), int(tree.infoset_num_actions[s])
            actions = tree.infoset_actions[off:off + k]
            table[tree.key(s)] = {int(a): float(p)
                                  for a, p in zip(actions, strategy[off:off + k])}
        return cls(game, table)

    def action_probabilities(self, state, player_id=None):
        player = state.current_player() if player_id is None else player_id
        key = state.information_state_string(player)
        try:
            return dict(self.table[key])
        except KeyError:
            raise KeyError(f"the strategy has no entry for information state {key!r}: "
                           f"is the state from the game the strategy was solved for?") from None

    def to_dict(self) -> dict[str, list[tuple[int, float]]]:
        """The form pyspiel.exploitability and pyspiel.expected_returns accept."""
        return {key: list(probs.items()) for key, probs in self.table.items()}

    def to_tabular(self) -> os_policy.TabularPolicy:
        """As an OpenSpiel TabularPolicy (enumerates every state: small games only)."""
        tabular = os_policy.TabularPolicy(self.game)
        for key, index in tabular.state_lookup.items():
            row = tabular.action_probability_array[index]
            row[:] = 0.0
            for a, p in self.table[key].items():
                row[a] = p
        return tabular
