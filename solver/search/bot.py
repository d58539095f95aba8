"""The play-time searcher as an OpenSpiel bot, for players outside the project."""

from __future__ import annotations

import numpy as np
import pyspiel

from solver.players.agents import AgentError
from solver.search.searcher import Searcher, search_action


class SearchBot(pyspiel.Bot):
    """Plays `player_id` of a `robin_wood` game by solver.search.searcher: each step
    rebuilds the belief from the state's history (no state kept between steps, so
    `restart_at` and undo are free). Reproducible: decision i of a round draws from
    seed (seed, i)."""

    def __init__(self, game: pyspiel.Game, player_id: int, searcher: Searcher,
                 seed: int = 0):
        pyspiel.Bot.__init__(self)
        variant = getattr(game, "variant", None)
        if variant is None:
            raise AgentError(f"{game} is not a robin_wood game")
        if variant != searcher.variant:
            raise AgentError(f"{searcher.name} plays {searcher.variant}, not {variant}")
        if player_id not in (0, 1):
            raise AgentError(f"player_id must be 0 or 1, got {player_id!r}")
        self.player_id = player_id
        self.searcher = searcher
        self.seed = int(seed)

    def step(self, state):
        if state.current_player() != self.player_id:
            raise AgentError(f"it is seat {state.current_player()}'s decision, not seat "
                             f"{self.player_id}'s")
        history = state.history()
        seed = np.random.SeedSequence([self.seed, len(history)]).generate_state(
            1, dtype=np.uint64)[0]
        return search_action(self.searcher, history, int(seed))

    def restart_at(self, state):
        pass

    def inform_action(self, state, player_id, action):
        pass
