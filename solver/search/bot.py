"""The play-time searcher as an OpenSpiel bot, for players outside the project."""

from __future__ import annotations

import numpy as np
import pyspiel

from solver.players.agents import AgentError
from solver.search.searcher import Searcher, search_action


class SearchBot(pyspiel.Bot):
    """Plays `player_id` of a `robin_wood` game by solver.search.searcher: each step
    rebuilds the belief from the state's history (no game state kept between steps, so
    `restart_at` and undo are free).

    Randomness: the bot owns one random stream, seeded once from `seed`, and each call
    to `step` draws from it the seed of that decision's search or blueprint draw. The
    stream advances with every step and is never rewound (not by `restart_at` either):
    successive rounds, and repeated decisions in the same situation, draw afresh, so the
    bot mixes as its blueprint does where it does not search. A fresh bot with the same
    seed, asked the same decisions in the same order, replays the same actions."""

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
        self._rng = np.random.default_rng(np.random.SeedSequence(self.seed))

    def step(self, state):
        if state.current_player() != self.player_id:
            raise AgentError(f"it is seat {state.current_player()}'s decision, not seat "
                             f"{self.player_id}'s")
        seed = self._rng.integers(0, 2**64, dtype=np.uint64)
        return search_action(self.searcher, state.history(), int(seed))

    def restart_at(self, state):
        pass

    def inform_action(self, state, player_id, action):
        pass
