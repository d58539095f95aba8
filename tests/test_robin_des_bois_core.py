"""The numba core of Robin des Bois (`robin_des_bois._core`, through `CoreState` and
`simulate`) against its plain twin, the OpenSpiel game of `robin_des_bois/state.py`.

The twin never reads the core: both are driven with the same moves (uniform among the
Python game's legal actions, chance by the Python game's outcome odds), and at every
step the current player, the terminal flag, the legal action ids (or the chance
outcomes and their probabilities) must agree; at the end the scores, the returns and
the rule counters. The action encodings are the same (`actions.ActionLayout`), so ids
pass unmapped. Then the simulator's per-seat win rates against the Python game's random
play, and the simulator's input checks.
"""

from __future__ import annotations

import math
import random

import pyspiel
import pytest

import robin_des_bois
from robin_des_bois import CoreState, RulesError
from robin_des_bois import actions as A

# Every player count of the published box (the default), its money taken lowest first,
# the small box ending once the display is taken too; every player count of the small
# box, and other boxes: a small deck with several
# copies and uneven gold; five colours and no gold with a hand limit below the hand;
# eight colours of three values, one copy; the longest colour (20 values); and a box
# whose first pile is so short that the second pile is often formed empty (I19).
SETTINGS = [
    ({"players": 3}, 60),
    ({"players": 4}, 60),
    ({"players": 5}, 60),
    ({"players": 6}, 60),
    ({"players": 4, "gold_order": "low"}, 30),
    ({"box": "small", "players": 3, "end": "display"}, 60),
    ({"box": "small", "players": 2}, 200),
    ({"box": "small", "players": 3}, 200),
    ({"box": "small", "players": 4}, 200),
    ({"box": "small", "players": 2, "colours": 3, "values": 4, "copies": 3, "gold": "1x3+2x1",
      "hand_size": 5, "hand_limit": 6}, 200),
    ({"box": "small", "players": 4, "colours": 5, "values": 5, "copies": 2, "gold": "",
      "hand_size": 4, "hand_limit": 3}, 200),
    ({"box": "small", "players": 3, "colours": 8, "values": 3, "copies": 1, "gold": "2x2+3x1",
      "hand_size": 3, "hand_limit": 2}, 200),
    ({"box": "small", "players": 2, "colours": 3, "values": 20, "copies": 1, "gold": "1x5+4x2",
      "hand_size": 10, "hand_limit": 12}, 120),
    ({"box": "small", "players": 2, "colours": 3, "values": 5, "copies": 1, "gold": "12x1",
      "hand_size": 5, "hand_limit": 20}, 200),
]

# Counters the twin can count from its own action ids (kind of each player move).
KIND_COUNTERS = {A.TAKE1: "take_one", A.TAKE2: "take_two", A.STASH: "stashes",
                 A.STEAL: "steals", A.COUNTER: "counters", A.ALLOW: "allows",
                 A.DISCARD: "hand_limit_discards"}


def play_twins(params: dict, rng: random.Random):
    """One random game on both; asserts agreement at every step. Returns the core's
    rule counters and the Python game's final state."""
    game = pyspiel.load_game("robin_des_bois", params)
    layout = game.layout
    py = game.new_initial_state()
    core = CoreState.new(params)
    kinds = dict.fromkeys(KIND_COUNTERS.values(), 0)
    steps = 0
    while True:
        where = f"step {steps} of {params}, history {py.history()}"
        assert core.current_player() == py.current_player(), where
        assert core.is_terminal() == py.is_terminal(), where
        if py.is_terminal():
            break
        assert core.is_chance_node() == py.is_chance_node(), where
        if py.is_chance_node():
            outcomes = py.chance_outcomes()
            core_outcomes = core.chance_outcomes()
            assert [c for c, _ in core_outcomes] == [c for c, _ in outcomes], where
            for (_, p), (_, q) in zip(core_outcomes, outcomes):
                assert p == pytest.approx(q, abs=1e-12), where
            assert core.legal_actions() == [], where
            action = rng.choices([c for c, _ in outcomes], [p for _, p in outcomes])[0]
        else:
            legal = py.legal_actions()
            assert core.legal_actions() == legal, where
            action = rng.choice(legal)
            kind = layout.kind_of[action]
            if kind in KIND_COUNTERS:
                kinds[KIND_COUNTERS[kind]] += 1
        py.apply_action(action)
        core.apply_action(action)
        steps += 1
    assert core.scores() == py.scores(), params
    assert core.returns() == py.returns(), params
    counters = core.counters()
    for name, count in kinds.items():
        assert counters[name] == count, (name, params)
    assert counters["moves"] + counters["chance_events"] == steps
    return counters, py


@pytest.mark.parametrize("params, games", SETTINGS,
                         ids=[str(i) for i in range(len(SETTINGS))])
def test_core_agrees_with_the_python_game_at_every_step(params, games):
    rng = random.Random(1000 + len(str(params)))
    totals: dict[str, int] = {}
    for _ in range(games):
        counters, _ = play_twins(params, rng)
        for name, v in counters.items():
            totals[name] = totals.get(name, 0) + v
    # the comparison means something only if the rules fired
    assert totals["take_one"] and totals["moves"] and totals["second_piles"] == games


def test_every_rule_is_exercised_by_the_twin_games():
    """Across the settings, every counted rule fires at least once (so the step-by-step
    comparison covered stashes, gold, both kinds of steal, counters, allows, safe
    triples, hand-limit discards and the second pile)."""
    rng = random.Random(7)
    totals: dict[str, int] = {}
    for params in (SETTINGS[0][0], SETTINGS[9][0], SETTINGS[10][0]):
        for _ in range(20):
            counters, _ = play_twins(params, rng)
            for name, v in counters.items():
                totals[name] = totals.get(name, 0) + v
    missing = [name for name, v in totals.items() if v == 0]
    assert missing == []


def test_second_pile_formed_empty_ends_the_game():
    """The short-pile box: games that end the moment the second pile is formed empty
    (I19) happen, and both agree on them."""
    params = SETTINGS[-1][0]
    rng = random.Random(3)
    formed_empty = 0
    for _ in range(40):
        _, py = play_twins(params, rng)
        formed_empty += "; second pile; game over" in py.information_state_string(0)
    assert formed_empty > 0


# ----- the simulator -------------------------------------------------------------------
def python_random_play(params: dict, games: int, seed: int) -> tuple[list[int], int]:
    """Outright wins per seat in `games` random games of the plain Python game, and the
    turns played in all (a turn starts with a take)."""
    game = pyspiel.load_game("robin_des_bois", params)
    layout = game.layout
    rng = random.Random(seed)
    wins = [0] * game.num_players()
    turns = 0
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                o = state.chance_outcomes()
                state.apply_action(rng.choices([c for c, _ in o], [p for _, p in o])[0])
            else:
                action = rng.choice(state.legal_actions())
                turns += layout.kind_of[action] in (A.TAKE1, A.TAKE2)
                state.apply_action(action)
        scores = state.scores()
        best = max(scores)
        if scores.count(best) == 1:
            wins[scores.index(best)] += 1
    return wins, turns


def test_simulator_win_rates_match_python_random_play():
    params, py_games, sim_games = {"box": "small", "players": 3}, 1500, 30_000
    py_wins, py_turns = python_random_play(params, py_games, seed=11)
    result = robin_des_bois.simulate(params, sim_games, seed=11)
    # mean game length (sd about 3.5 turns): within 0.5 turns, about 5 standard errors
    assert abs(py_turns / py_games - result.game_length()["mean_turns"]) < 0.5
    for seat in range(3):
        p_py = py_wins[seat] / py_games
        p_sim = result.wins[seat] / sim_games
        p = (py_wins[seat] + result.wins[seat]) / (py_games + sim_games)
        se = math.sqrt(p * (1 - p) * (1 / py_games + 1 / sim_games))
        assert abs(p_py - p_sim) < 4.5 * se, (seat, p_py, p_sim, se)


def test_simulation_result_is_consistent_and_reproducible():
    a = robin_des_bois.simulate({"box": "small", "players": 4}, 3000, seed=5)
    b = robin_des_bois.simulate({"box": "small", "players": 4}, 3000, seed=5)
    assert a.wins == b.wins and a.counters == b.counters
    assert a.turn_histogram.sum() == 3000
    c = a.counters
    assert c["thefts"] == c["unstoppable"] + c["allows"]
    assert c["counterable"] == c["counters"] + c["allows"]
    assert c["steals"] == c["unstoppable"] + c["counterable"]
    assert c["gold_taken"] <= min(c["stashes"], 12 * 3000)
    assert c["second_piles"] == 3000
    assert c["take_one"] + c["take_two"] == int(
        (a.turn_histogram * range(len(a.turn_histogram))).sum())
    shared_games_min = math.ceil(sum(a.shared_wins) / 3)
    assert sum(a.wins) + shared_games_min + a.all_tied <= 3000 <= (
        sum(a.wins) + sum(a.shared_wins) // 2 + a.all_tied)
    assert sum(a.mean_return) == pytest.approx(0.0, abs=1e-9)
    assert a.params == pyspiel.load_game("robin_des_bois", {"box": "small", "players": 4}).get_parameters()
    json = a.to_json()
    assert json["games"] == 3000 and len(json["win_rates"]) == 4
    assert json["game_length"]["mean_turns"] > 0


@pytest.mark.parametrize("kwargs, message", [
    (dict(params=None, games=0, seed=0), "games must be from 1"),
    (dict(params=None, games=True, seed=0), "games must be an integer"),
    (dict(params=None, games=2.5, seed=0), "games must be an integer"),
    (dict(params=None, games=10, seed=-1), "seed must be from 0"),
    (dict(params=None, games=10, seed="1"), "seed must be an integer"),
    (dict(params={"players": 7}, games=10, seed=0), "players=7 is out of range"),
    (dict(params={"colour": 4}, games=10, seed=0), "unknown parameter"),
    (dict(params=[("players", 2)], games=10, seed=0), "params must be a dict"),
])
def test_simulate_rejects_bad_input_in_one_line(kwargs, message):
    with pytest.raises(ValueError, match=message) as info:
        robin_des_bois.simulate(**kwargs)
    assert "\n" not in str(info.value)
    if "players" in message or "parameter" in message:
        assert isinstance(info.value, RulesError)


def test_core_state_rejects_illegal_moves():
    state = CoreState.new({"box": "small", "players": 2})
    with pytest.raises(ValueError, match="chance outcome"):
        state.apply_action(10_000)
    while not state.legal_actions():
        state.apply_action(state.chance_outcomes()[0][0])
    with pytest.raises(ValueError, match="not legal here"):
        state.apply_action(state.legal_actions()[-1] + 10_000)
    with pytest.raises(ValueError, match="integer id"):
        state.apply_action("take R1")
    before = state.legal_actions()
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])   # a take: the clone moves to "act"
    assert state.legal_actions() == before and clone.legal_actions() != before


def test_kernel_cache_is_keyed_by_every_source_of_the_package(tmp_path):
    """The core freezes constants of rules.py: changing any file of the package must
    change the cache directory (robin_des_bois/_jit.py)."""
    import shutil

    from robin_des_bois import _jit

    package = tmp_path / "robin_des_bois"
    shutil.copytree(_jit._PACKAGE, package, ignore=shutil.ignore_patterns("__pycache__"))
    before = _jit._sources_digest(package)
    assert before == _jit._sources_digest()
    with open(package / "rules.py", "a") as f:
        f.write("\n# changed\n")
    assert _jit._sources_digest(package) != before
