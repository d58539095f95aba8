"""The robin_wood game against OpenSpiel's own checks and algorithms."""

import pytest
import pyspiel

import game_def
from game_def.decks import NAMED_DECKS

from perfect_recall import check_perfect_recall

TWO_PLAYER_DECKS = [d for d in NAMED_DECKS if d != "team"]


@pytest.mark.parametrize("deck", TWO_PLAYER_DECKS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_sim_test_every_deck_and_player_count(deck, players):
    game = game_def.load_game(f"{deck}:players={players}")
    pyspiel.random_sim_test(game, num_sims=15, serialize=True, verbose=False)


@pytest.mark.parametrize("spec", [
    "team:players=4,teams=true",
    "team:players=4,teams=true,challenge_order=random",
    "standard:players=3,challenge_order=random,traitor_strikes_on_reveal=true",
    "standard:strikes=1,max_turns=5",
    "duel8:strikes=3,first_player=1",
    "rspx:layout=Sheriff+Robin+Traitor+Peasant",
])
def test_random_sim_test_team_mode_and_options(spec):
    pyspiel.random_sim_test(game_def.load_game(spec), num_sims=15, serialize=True,
                            verbose=False)


@pytest.mark.parametrize("spec", [
    "standard", "team:players=4,teams=true", "rspx:layout=Robin+Sheriff+Peasant+Traitor",
    "Robin+Sheriff+Monk+Traitor:players=3,challenge_order=random",
])
def test_game_string_round_trips_through_load_game(spec):
    game = game_def.load_game(spec)
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game)
    assert again.variant == game.variant


def test_bad_parameters_fail_inside_pyspiel_load_game_too():
    with pytest.raises(Exception, match="unknown deck 'nope'"):
        pyspiel.load_game("robin_wood", {"deck": "nope"})


@pytest.mark.parametrize("spec", [
    "rspx:max_turns=3",
    "rspmx:max_turns=2",
    "duel6:max_turns=1",
    "duel7:max_turns=1",
    "duel8:max_turns=1",
    "rspx:max_turns=2,players=3",
    "rspx:max_turns=2,players=3,challenge_order=random",
    "Robin+Sheriff+Innkeeper+Traitor:players=4,teams=true,max_turns=1",
    "Robin+Sheriff+Deputy+Traitor:max_turns=2",
    "Robin+Companion+Sheriff+Traitor:max_turns=3",
    "Robin+Witch+Sheriff+Traitor:max_turns=2",
])
def test_perfect_recall_on_every_history(spec):
    counts = check_perfect_recall(game_def.load_game(spec))
    assert counts["infostates"] > 10


def test_perfect_recall_checker_catches_a_forgetful_game():
    """The checker must fail on a game that forgets: Kuhn poker seen through observation
    strings (no betting history) is such a game."""

    class Forgetful:
        def __init__(self, state):
            self._state = state

        def __getattr__(self, name):
            return getattr(self._state, name)

        def information_state_string(self, player):
            return self._state.observation_string(player)

        def child(self, action):
            return Forgetful(self._state.child(action))

    class ForgetfulGame:
        def __init__(self, game):
            self._game = game

        def num_players(self):
            return self._game.num_players()

        def new_initial_state(self):
            return Forgetful(self._game.new_initial_state())

    game = ForgetfulGame(pyspiel.load_game("leduc_poker"))
    with pytest.raises(AssertionError, match="information state"):
        check_perfect_recall(game)


def test_openspiel_cfr_and_exploitability_run_on_the_game():
    game = game_def.load_game("rspx:max_turns=2")
    solver = pyspiel.CFRSolver(game)
    first = pyspiel.exploitability(game, solver.average_policy())
    for _ in range(30):
        solver.evaluate_and_update_policy()
    later = pyspiel.exploitability(game, solver.average_policy())
    assert later < first / 3


def test_observation_tensor_matches_its_declared_shape():
    game = game_def.load_game("standard")
    state = game_def.play(game, "peek 0", "deal Robin")
    tensor = state.observation_tensor(0)
    assert len(tensor) == game.observation_tensor_size()
    # The peeker holds the card: Robin at position 0 is in hand for seat 0 only.
    obs = game.make_py_observer()
    obs.set_from(state, 0)
    assert obs.dict["in_hand"][0, game_def.Character.ROBIN] == 1
    obs.set_from(state, 1)
    assert obs.dict["in_hand"].sum() == 0
    assert "hand 0=Robin" in state.observation_string(0)
    assert "Robin" not in state.observation_string(1)
