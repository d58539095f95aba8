"""Robin des Bois as an OpenSpiel game (`robin_des_bois`): GameType, Game, Observer.

Laid out like OpenSpiel's `python/games/kuhn_poker.py`. The GameInfo is built from the
parameters (rules.PARAMETER_DEFAULTS: `box` names the box, an option at its OpenSpiel
default 0 or '' takes the box's value); the rules of a turn live in state.py. The game's
parameters are `Rules.to_params()`: the box's own values stay at 0 or '' (so the same
parameters at another player count follow the box), and `str(game)` loads again with
`pyspiel.load_game`; `game.rules.contents()` writes every value out.
"""

from __future__ import annotations

import numpy as np
import pyspiel

from .actions import ActionLayout
from .rules import MAX_PLAYERS, MIN_PLAYERS, PARAMETER_DEFAULTS, RulesError, from_params
from .state import RobinDesBoisState, render

GAME_NAME = "robin_des_bois"

GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Robin des Bois",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=False,
    parameter_specification=dict(PARAMETER_DEFAULTS),
)


def max_game_length(num_cards: int) -> int:
    """Upper bound on player moves. Each turn takes at least one display card and at
    most 2N cards ever reach the display (the two piles hold at most 2N cards), so at
    most 2N turns (2 moves: take, end), whichever way the game ends (I19). Each stash or steal
    (at most 4 moves: steal, rob, counter, lose) removes at least one card from a hand,
    and at most 2N cards ever enter hands; so do hand-limit discards (1 move each)."""
    n = num_cards
    return 2 * n * 2 + 2 * n * 4 + 2 * n


class RobinDesBoisGame(pyspiel.Game):
    """One game of Robin des Bois for the box contents given as parameters."""

    def __init__(self, params=None):
        self.rules = from_params(params or {})
        self.layout = ActionLayout(self.rules)
        r = self.rules
        info = pyspiel.GameInfo(
            num_distinct_actions=self.layout.num_distinct_actions,
            max_chance_outcomes=r.num_types,
            num_players=r.players,
            min_utility=-1.0 / (r.players - 1),
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=max_game_length(r.num_cards),
        )
        super().__init__(GAME_TYPE, info, r.to_params())

    def new_initial_state(self):
        return RobinDesBoisState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return RobinDesBoisObserver(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class RobinDesBoisObserver:
    """Strings only (PyObserver protocol, open_spiel/python/observation.py).

    perfect_recall=True: the player's record of everything he has observed (or the
    public record); perfect_recall=False: the table now (state.render)."""

    def __init__(self, iig_obs_type, params):
        if params:
            raise RulesError(f"observation parameters are not supported (got {params})")
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise RulesError("observations with every player's private information are "
                             "not supported; use SINGLE_PLAYER or NONE")
        self._perfect_recall = iig_obs_type.perfect_recall
        self._private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.tensor = np.zeros(0, np.float32)
        self.dict = {}

    def set_from(self, state, player):
        pass

    def string_from(self, state, player):
        if self._perfect_recall:
            return state._seen[player] if self._private else state._seen[-1]
        return render(state, player if self._private else -1)


pyspiel.register_game(GAME_TYPE, RobinDesBoisGame)
