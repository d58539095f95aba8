"""Players of Robin des Bois (robin_des_bois/players.py, tournament.py): every player's
actions are legal over random games for 2-4 players (on the core and on the OpenSpiel
game); one scenario per scripted rule, driven by action strings; the view a player gets
is the same from both engines and blind to hidden cards; determinizations are
consistent; the tournament's interval arithmetic on hand-made counts."""

from __future__ import annotations

import math
import random

import numpy as np
import pyspiel
import pytest

from robin_des_bois import _core as k
from robin_des_bois import CoreState
from robin_des_bois.players import (SCRIPTED, MonteCarloSearch, choose, make_player,
                                    view_of)
from robin_des_bois.tournament import (MatchResult, format_row, normal_interval,
                                       play_game, seat_rotated, win_share)

ALL = list(SCRIPTED) + ["search"]


# ----- helpers ------------------------------------------------------------------------
def play(state, *moves: str):
    for move in moves:
        if state.is_chance_node():
            options = {state.action_to_string(a): a for a, _ in state.chance_outcomes()}
        else:
            options = {state.action_to_string(a): a for a in state.legal_actions()}
        assert move in options, f"{move!r} not offered; offered: {sorted(options)}"
        state.apply_action(options[move])
    return state


def start(params: dict, hands: list[str], display: str):
    state = pyspiel.load_game("robin_des_bois", params).new_initial_state()
    play(state, *[c for h in hands for c in h.split()], *display.split())
    return state


def picks(name: str, state) -> str:
    return state.action_to_string(choose(make_player(name, samples=4), state))


# ----- legality -----------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_player_is_legal_on_the_core(players):
    """Mixed tables of every player for a few games; play_game raises on an illegal move."""
    rng = random.Random(players)
    for g in range(6):
        names = [rng.choice(ALL) for _ in range(players)]
        names[g % players] = ALL[g % len(ALL)]
        seats = [make_player(n, seed=g, samples=2) for n in names]
        scores = play_game({"box": "small", "players": players}, seats, seed=g)
        assert len(scores) == players and min(scores) >= 0


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_every_player_is_legal_at_the_published_box(players):
    """The same at the default box, at every player count it seats."""
    rng = random.Random(20 + players)
    for g in range(2):
        names = [rng.choice(ALL) for _ in range(players)]
        names[g % players] = "search"
        seats = [make_player(n, seed=g, samples=2) for n in names]
        scores = play_game({"players": players}, seats, seed=g)
        assert len(scores) == players and min(scores) >= 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_player_is_legal_on_the_openspiel_game(players):
    game = pyspiel.load_game("robin_des_bois", {"box": "small", "players": players})
    rng = random.Random(10 + players)
    for g in range(2):
        seats = [make_player(ALL[(g + p) % len(ALL)], seed=p, samples=2)
                 for p in range(players)]
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                cards, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(cards, probs)[0])
            else:
                action = choose(seats[state.current_player()], state)
                assert action in state.legal_actions()
                state.apply_action(action)


def test_other_box_contents():
    params = {"box": "small", "players": 3, "colours": 3, "values": 5, "copies": 3, "gold": "1x3+2x1",
              "hand_size": 6, "hand_limit": 7}
    for g, name in enumerate(ALL):
        seats = [make_player(name, seed=g, samples=2)] + [make_player("random", g)] * 2
        play_game(params, seats, seed=g)


# ----- what a player sees -------------------------------------------------------------
def test_views_agree_between_engines_and_ignore_hidden_cards():
    """The OpenSpiel game and the core, driven by the same moves, give the same view at
    every decision; the view holds the player's own hand but no other hand (beyond the
    set of a steal under way) and no first-pile card; the unseen count is exactly the
    cards in other hands and the first pile."""
    for players, seed in ((2, 1), (3, 2), (4, 3)):
        rng = random.Random(seed)
        game = pyspiel.load_game("robin_des_bois", {"box": "small", "players": players})
        py, core = game.new_initial_state(), CoreState.new({"box": "small", "players": players})
        while not py.is_terminal():
            if py.is_chance_node():
                cards, probs = zip(*py.chance_outcomes())
                a = rng.choices(cards, probs)[0]
            else:
                v1, v2 = view_of(py), view_of(core)
                assert np.array_equal(v1.arr, v2.arr) and v1.legal == v2.legal
                assert np.array_equal(v1.unseen, v2.unseen)
                p, s, t = v1.player, core._state, v1.rules.num_types
                assert v1.hand() == list(s[k.S_HANDS + p * k.MAX_TYPES:][:t])
                hidden = sum(int(s[k.S_HAND_TOTAL + q]) for q in range(players) if q != p)
                hidden -= len(v1.steal_set()) if v1.arr[k.S_TURN] != p else 0
                if s[k.S_PILE_NUMBER] == 1:
                    hidden += int(s[k.S_PILE_TOTAL])
                    assert not v1.arr[k.S_PILE:k.S_PILE + t].any()
                assert int(v1.unseen.sum()) == hidden
                a = rng.choice(v1.legal)
            py.apply_action(a)
            core.apply_action(a)


def test_determinizations_are_consistent_deals():
    """Each re-deal keeps the public table, the player's hand and every hand size, and
    offers the player the same legal actions as the real game."""
    from robin_des_bois._players_core import MAX_POOL, _determinize

    rng = random.Random(5)
    state = CoreState.new({"box": "small", "players": 3})
    pool = np.empty(MAX_POOL, dtype=np.int64)
    checked = 0
    while not state.is_terminal():
        if state.is_chance_node():
            cards, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(cards, probs)[0])
            continue
        view = view_of(state)
        unseen = np.zeros(k.MAX_TYPES, dtype=np.int64)
        unseen[:view.rules.num_types] = view.unseen
        out = np.empty_like(view.arr)
        _determinize(view.arr, state._rules, view.player, unseen, pool, out)
        det = CoreState(state.rules, state._rules, out)
        assert det.legal_actions() == view.legal
        t = view.rules.num_types
        for q in range(3):
            assert out[k.S_HANDS + q * k.MAX_TYPES:][:t].sum() == out[k.S_HAND_TOTAL + q]
        assert out[k.S_PILE:k.S_PILE + t].sum() == out[k.S_PILE_TOTAL]
        checked += 1
        state.apply_action(rng.choice(view.legal))
    assert checked > 50


# ----- scenarios: one per rule --------------------------------------------------------
def _set_table():
    """P0 stashes R3 (face up); P1 holds G5 B5 and sees Y2 Y3 R5 on the display."""
    state = start({"box": "small", "players": 2, "hand_size": 6},
                  ["R1 R2 R3 G4 Y6 Y6", "G5 B5 G1 B1 B2 Y4"], "Y1 Y2 Y3")
    return play(state, "take Y1", "stash R1 R2 R3", "end", "R5")


def test_thief_takes_the_card_that_makes_a_set_greedy_takes_a_run():
    state = _set_table()
    assert "R5" in picks("thief", state).split()          # take R5 Y2 or similar
    assert picks("greedy_stasher", state) == "take Y2 Y3"  # Y2 Y3 Y4: a run
    assert picks("defender", state) == "take Y2 Y3"


def test_thief_holding_a_set_steals_the_highest_treasure_greedy_does_not():
    state = start({"box": "small", "players": 2, "hand_size": 6},
                  ["R1 R2 R3 G4 Y6 Y6", "G5 R5 B5 G1 B1 B2"], "Y1 Y2 Y3")
    play(state, "take Y1", "stash R1 R2 R3", "end", "B4", "take Y2")
    assert picks("thief", state) == "steal R5 G5 B5"      # three colours: unstoppable
    assert picks("greedy_stasher", state) == "end"         # avoids stealing
    assert picks("defender", state) == "end"
    play(state, "steal R5 G5 B5")
    assert picks("thief", state) == "rob 0 R3"


def test_defender_holding_the_value_counters():
    state = start({"box": "small", "players": 2, "hand_size": 6},
                  ["R1 R2 R3 G4 Y5 Y6", "G5 G5 B5 G1 B1 B2"], "Y1 Y2 Y3")
    play(state, "take Y1", "stash R1 R2 R3", "end", "B4", "take Y2",
         "steal G5 G5 B5", "rob 0 R3")
    assert state.current_player() == 0
    assert picks("defender", state) == "counter Y5"


def test_greedy_stasher_stashes_the_highest_run_defender_the_safe_one():
    """With R3 and R6 face up, `stash R1 R2 R3` makes three reds (safe, face down) while
    `stash G4 G5 G6` is worth more: the greedy stasher takes the value, the defender the
    safety."""
    state = start({"box": "small", "players": 2, "hand_size": 12},
                  ["R1 R2 R3 R4 R5 R6 R1 R2 R3 G4 G5 G6",
                   "Y1 Y2 Y3 Y4 Y5 Y6 B1 B2 B3 B4 B5 B6"], "G1 G2 G3")
    play(state, "take G1")
    assert picks("greedy_stasher", state) == "stash R4 R5 R6"
    play(state, "stash R4 R5 R6", "stash R1 R2 R3")
    assert picks("greedy_stasher", state) == "stash G4 G5 G6"
    assert picks("defender", state) == "stash R1 R2 R3"
    assert picks("thief", state) == "stash G4 G5 G6"       # no set: stashes like greedy


def test_defender_keeps_one_card_of_each_value_when_discarding():
    """Over the hand limit: the greedy stasher drops B2 (no run material, lowest); the
    defender keeps its only 2 (a counter card) and drops a 6, of which it holds four."""
    state = start({"box": "small", "players": 2, "hand_size": 9, "hand_limit": 8},
                  ["B2 G4 Y3 R4 G5 B6 Y6 R6 G6", "G2 G2 B3 B3 Y4 Y4 R5 R5 B1"], "Y1 Y2 G3")
    play(state, "take Y1", "end")
    assert state.phase == "discard"
    assert picks("greedy_stasher", state) == "discard B2"
    assert picks("defender", state) == "discard B6"


def test_random_player_is_uniform_over_legal_actions():
    state = _set_table()
    player = make_player("random", seed=3)
    seen = {choose(player, state) for _ in range(200)}
    assert seen == set(state.legal_actions())


def test_search_values_and_budget():
    state = start({"box": "small", "players": 2, "hand_size": 6},
                  ["R1 R2 R3 G4 Y6 Y6", "G5 R5 B5 G1 B1 B2"], "Y1 Y2 Y3")
    play(state, "take Y1", "stash R1 R2 R3", "end", "B4", "take Y2")
    search = MonteCarloSearch(samples=8, seed=1)
    view = view_of(state)
    values = search.values(view)
    assert values.shape == (len(view.legal),) and np.all(np.abs(values) <= 1.5)
    assert search(view) in view.legal
    with pytest.raises(ValueError):
        MonteCarloSearch(samples=0)
    with pytest.raises(ValueError):
        make_player("nobody")


# ----- tournament arithmetic ----------------------------------------------------------
def test_normal_interval_on_hand_made_counts():
    # 10 games, 6 wins: mean 0.6, sample variance (6 - 10 * 0.36) / 9
    mean, se, lo, hi = normal_interval(6.0, 6.0, 10)
    assert mean == pytest.approx(0.6)
    assert se == pytest.approx(math.sqrt(2.4 / 9 / 10))
    assert (lo, hi) == pytest.approx((0.6 - 1.959964 * se, 0.6 + 1.959964 * se))
    # shares with ties: 1, 0.5, 0, 0.5 -> mean 0.5, variance (1.5 - 1) / 3
    mean, se, _, _ = normal_interval(2.0, 1.5, 4)
    assert (mean, se) == pytest.approx((0.5, math.sqrt(0.5 / 3 / 4)))
    with pytest.raises(ValueError):
        normal_interval(1, 1, 1)


def test_win_share_and_seat_average():
    assert win_share([5, 3], 0) == 1.0 and win_share([5, 3], 1) == 0.0
    assert win_share([5, 5, 3], 1) == 0.5 and win_share([4, 4, 4], 2) == pytest.approx(1 / 3)
    r = MatchResult("a", "b", 2, 100, share_sum=[70.0, 60.0], share_sq_sum=[70.0, 60.0])
    (m0, se0, _, _), (m1, se1, _, _) = r.seat(0), r.seat(1)
    assert (m0, m1) == pytest.approx((0.7, 0.6))
    mean, se, lo, hi = r.seat_average()
    assert mean == pytest.approx(0.65)
    assert se == pytest.approx(math.sqrt(se0 ** 2 + se1 ** 2) / 2)
    assert lo == pytest.approx(0.65 - 1.959964 * se) and r.beats() and r.beats_every_seat()
    even = MatchResult("a", "b", 2, 100, [52.0, 48.0], [52.0, 48.0])
    assert not even.beats() and "even?" in format_row(even)


def test_seat_rotated_runs_every_seat():
    r = seat_rotated("greedy_stasher", "random", players=3, games_per_seat=4, seed=7)
    assert r.players == 3 and r.games_per_seat == 4
    assert all(0 <= s <= 4 for s in r.share_sum)
    assert "greedy_stasher vs random" in format_row(r)
