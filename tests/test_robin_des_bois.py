"""The `robin_des_bois` OpenSpiel game: OpenSpiel's random simulation test at every player
count, one scenario per rule of docs/robin-des-bois-rules.md (interpretations I1..I24)
driven by action strings (chance outcomes chosen by their strings too), bad parameters,
and hidden hands in information states.

Setup deals are written out: hands[p] is the list of cards dealt to player p, in order,
then the three display cards. Cards are colour letter + value (R, G, B, Y; 1..6 by
default, two copies of each).
"""

from __future__ import annotations

import random

import pyspiel
import pytest

import robin_des_bois
from robin_des_bois import Rules, RulesError, from_params, utilities


# ----- helpers ------------------------------------------------------------------------
def legal(state) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def play(state, *moves: str):
    """Apply moves by their strings; at a chance node the string is the card drawn."""
    for move in moves:
        assert not state.is_terminal(), f"game over before {move!r}"
        if state.is_chance_node():
            options = {state.action_to_string(a): a for a, _ in state.chance_outcomes()}
        else:
            options = {state.action_to_string(a): a for a in state.legal_actions()}
        assert move in options, f"{move!r} not offered; offered: {sorted(options)}"
        state.apply_action(options[move])
    return state


def start(params: dict, hands: list[str], display: str):
    """A game after a chosen deal: hands[p] = 'R1 R2 ...', then the display."""
    game = pyspiel.load_game("robin_des_bois", params)
    state = game.new_initial_state()
    cards = [c for h in hands for c in h.split()] + display.split()
    play(state, *cards)
    assert state.current_player() == 0 and state.phase == "take"
    return state


# ----- OpenSpiel conformance ----------------------------------------------------------
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_simulation_every_player_count_of_the_box(players):
    """OpenSpiel's random simulation test with the defaults (the published box) at every
    player count the box seats."""
    game = pyspiel.load_game("robin_des_bois", {"players": players})
    assert game.rules.box == "box" and game.rules.num_cards == 108
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_simulation_small_box(players):
    game = pyspiel.load_game("robin_des_bois", {"box": "small", "players": players})
    pyspiel.random_sim_test(game, num_sims=4, serialize=True, verbose=False)


def test_random_simulation_other_box():
    game = pyspiel.load_game("robin_des_bois", {"box": "small", "players": 2, "colours": 3,
                                                "values": 4, "copies": 3, "gold": "1x3+2x1",
                                                "hand_size": 5, "hand_limit": 6})
    pyspiel.random_sim_test(game, num_sims=5, serialize=True, verbose=False)


@pytest.mark.parametrize("players, gold", [(3, (3,) * 9), (4, (6, 6) + (3,) * 9),
                                           (5, (6, 6) + (3,) * 9), (6, (6, 6) + (3,) * 9)])
def test_the_default_is_the_published_box(players, gold):
    """Three colours, four copies of 1-9 (108 cards), nine 3-coin and two 6-coin cards
    with the 6s out at three players, 3 to 6 players; the game ends once the second pile
    is used up and the display taken; a stash earns the most valuable money card left."""
    r = pyspiel.load_game("robin_des_bois", {"players": players}).rules
    assert (r.box, r.colours, r.values, r.copies, r.num_cards) == ("box", 3, 9, 4, 108)
    assert r.gold == gold and r.gold_order == "high" and r.end == "display"
    assert (r.hand_size, r.hand_limit) == (9, 9)
    assert from_params({}).players == 3 and Rules() == from_params({})


def test_parameters_round_trip_and_defaults():
    game = pyspiel.load_game("robin_des_bois")
    # the box's own values stay at their OpenSpiel defaults (0 or '')
    assert game.get_parameters() == robin_des_bois.PARAMETER_DEFAULTS
    assert game.rules.contents() == {"box": "box", "players": 3, "colours": 3, "values": 9,
                                     "copies": 4, "gold": "9x3", "gold_order": "high",
                                     "hand_size": 9, "hand_limit": 9, "end": "display"}
    assert game.num_players() == 3
    assert str(pyspiel.load_game(str(game))) == str(game)
    small = pyspiel.load_game("robin_des_bois", {"box": "small"})
    assert small.get_parameters() == {**robin_des_bois.PARAMETER_DEFAULTS, "box": "small"}
    assert small.rules.contents() == {"box": "small", "players": 3, "colours": 4,
                                      "values": 6, "copies": 2, "gold": "12x1",
                                      "gold_order": "high", "hand_size": 9,
                                      "hand_limit": 9, "end": "pile"}
    assert small.rules.gold == (1,) * 12
    # a change of box or players follows the new box's own values
    assert from_params({**small.get_parameters(), "box": "box"}) == Rules()
    big = from_params({**game.get_parameters(), "copies": 5})
    assert big.to_params()["copies"] == 5 and big.to_params()["colours"] == 0
    g = pyspiel.load_game("robin_des_bois", {"box": "small", "gold": "3+1+1"})
    assert g.get_parameters()["gold"] == "1x3+2x1"
    assert g.rules.gold == (3, 1, 1)
    assert str(pyspiel.load_game(str(g))) == str(g)
    # a copy of the parameters at another player count follows the box's money
    p = from_params({}).to_params()
    assert from_params({**p, "players": 4}).gold == (6, 6) + (3,) * 9


def test_variant_strings_round_trip():
    from robin_des_bois.rules import parse_variant

    assert str(Rules()) == "box"
    assert str(parse_variant("box:players=5")) == "box:players=5"
    v = parse_variant("small:players=2,copies=3")
    assert (v.box, v.players, v.copies, v.colours) == ("small", 2, 3, 4)
    assert str(v) == "small:players=2,copies=3" and parse_variant(str(v)) == v
    low = parse_variant("box:players=4,gold_order=low")
    assert low.gold == (3,) * 9 + (6, 6)
    assert str(low.replace(players=3)) == "box:gold_order=low"
    assert low.replace(players=3).gold == (3,) * 9


@pytest.mark.parametrize("text, message", [
    ("castle", r"unknown box 'castle': the boxes are box, small"),
    ("players=4", r"names no box.*'box:players=4'"),
    ("box:players", r"has no value"),
    ("box:colors=4", r"unknown option 'colors'"),
    ("box:players=4,players=5", r"given twice"),
    ("box:players=x", r"players=x is not an integer"),
    ("box:end=never", r"end='never' is not one of display, pile"),
    ("box:gold_order=best", r"gold_order='best' is not one of high, low"),
])
def test_bad_variant_strings_are_one_line_errors(text, message):
    from robin_des_bois.rules import parse_variant

    with pytest.raises(RulesError, match=message) as info:
        parse_variant(text)
    assert "\n" not in str(info.value)


def test_gold_order_low_earns_the_least_valuable_money_card_first():
    """I9 `gold_order=low`: the first stash earns a 3, not a 6."""
    state = start({"box": "box", "players": 4, "gold_order": "low"},
                  ["R1 R2 B1 G5 G6 G7 B7 B8 B9", "R4 R5 R6 B2 B3 B4 G1 G2 G3",
                   "R7 R8 R9 G4 G8 G9 B5 B6 R1", "R2 R3 R4 R5 R6 R7 R8 R9 G1"], "R3 G5 B5")
    play(state, "take R3", "stash R1 R2 R3")
    assert state.gold(0) == 3
    high = start({"box": "box", "players": 4},
                 ["R1 R2 B1 G5 G6 G7 B7 B8 B9", "R4 R5 R6 B2 B3 B4 G1 G2 G3",
                  "R7 R8 R9 G4 G8 G9 B5 B6 R1", "R2 R3 R4 R5 R6 R7 R8 R9 G1"], "R3 G5 B5")
    play(high, "take R3", "stash R1 R2 R3")
    assert high.gold(0) == 6


def test_every_action_string_round_trips():
    game = pyspiel.load_game("robin_des_bois", {"box": "small", "players": 4})
    lay = game.layout
    strings = [lay.to_string(a) for a in range(game.num_distinct_actions())]
    assert len(set(strings)) == len(strings)
    assert all(lay.from_string(s) == a for a, s in enumerate(strings))
    assert {"take R3", "take R3 G5", "end", "stash R3 R4 R5", "steal R3 R3 G3",
            "steal R3 G3 B3", "rob 1 R5", "counter G3", "allow", "lose R3",
            "discard R3"} <= set(strings)
    with pytest.raises(ValueError, match="unknown action"):
        lay.from_string("stash R3 R5 R4")


# ----- setup --------------------------------------------------------------------------
def test_setup_deals_nine_each_and_three_face_up():
    """I2: 9 cards each (hand_size), 3 face-up display cards, the rest is the pile;
    each draw weights a card by its copies left."""
    game = pyspiel.load_game("robin_des_bois", {"box": "small", "players": 2})
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = dict(state.chance_outcomes())
    assert len(outcomes) == 24 and all(p == pytest.approx(2 / 48) for p in outcomes.values())
    play(state, "R1")
    assert dict(state.chance_outcomes())[game.layout.rules.card(0, 1)] == pytest.approx(1 / 47)
    rng = random.Random(1)
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    assert [len(state.hand(p)) for p in range(2)] == [9, 9]
    assert len(state.display()) == 3 and state.pile_size == 48 - 21
    assert state.current_player() == 0


# ----- taking from the display --------------------------------------------------------
def test_take_one_or_two_and_only_then_act():
    """I3: a turn starts by taking one or two display cards; nothing else is offered."""
    state = start({"box": "small", "players": 2, "hand_size": 4},
                  ["R1 G2 B3 Y4", "R6 G6 B5 Y5"], "R3 G4 Y6")
    # no pair is offered: after any two, no run and nobody to rob (I4)
    assert legal(state) == ["take R3", "take G4", "take Y6"]
    assert "end" not in legal(state)
    play(state, "take R3")
    assert "end" in legal(state)   # one card taken: actions are optional
    assert state.hand(0) == ["R1", "R3", "G2", "B3", "Y4"]
    assert state.display() == ["G4", "Y6"]


def test_taking_two_obliges_an_action():
    """I4: taking two is offered only if an action is then possible, and the turn cannot
    end before one action."""
    state = start({"box": "small", "players": 2, "hand_size": 4},
                  ["R3 R4 G1 B2", "R6 G6 B5 Y5"], "R5 Y5 Y6")
    offered = legal(state)
    assert "take R5 Y6" in offered          # R3 R4 R5 can then be stashed
    assert "take Y5 Y6" not in offered     # no run, nobody to rob: no action possible
    play(state, "take R5 Y6")
    assert "end" not in legal(state)
    play(state, "stash R3 R4 R5")
    assert "end" in legal(state)


# ----- stashing -----------------------------------------------------------------------
def test_stash_a_run_keeps_the_highest_and_takes_gold():
    """I5, I6, I8: three consecutive values of one colour; the highest goes face up in
    the stash, the two others are discarded; then a gold card."""
    state = start({"box": "small", "players": 2, "hand_size": 4, "gold": "1x3+1x1"},
                  ["R3 R4 G5 R6", "R1 G6 B5 Y5"], "R5 Y1 Y2")
    play(state, "take Y1")
    assert not [a for a in legal(state) if a.startswith("stash")]   # R3 R4 R6 G5: no run
    play(state, "end", "B1", "take Y2", "end", "B2")
    play(state, "take R5")
    assert [a for a in legal(state) if a.startswith("stash")] == ["stash R3 R4 R5",
                                                                  "stash R4 R5 R6"]
    play(state, "stash R4 R5 R6")
    assert state.stash(0) == ["R6"] and state.discard_size == 2
    assert state.hand(0) == ["R3", "G5", "Y1"]
    assert state.gold(0) == 3   # I9: the most valuable gold card left
    assert state.scores()[0] == 6 + 3


def test_gold_runs_out_and_several_actions_per_turn():
    """I9, I17: the gold supply is finite; a player may act as often as he can."""
    state = start({"box": "small", "players": 2, "hand_size": 6, "gold": "1x2"},
                  ["R1 R2 R3 G1 G2 G3", "B1 B2 B4 Y4 Y5 Y6"], "R5 Y1 Y2")
    play(state, "take R5", "stash R1 R2 R3", "stash G1 G2 G3")
    assert state.gold(0) == 2   # one gold card for the first stash, none left for the next
    assert state.stash(0) == ["R3", "G3"] and "end" in legal(state)


def test_three_of_one_colour_become_safe():
    """I10: three treasures of one colour in a stash turn face down and cannot be stolen."""
    state = start({"box": "small", "players": 2, "copies": 3},
                  ["R1 R2 R3 R2 R3 R4 R3 R4 R5", "G5 B5 Y5 G1 G2 B1 B2 Y1 Y2"], "G6 B6 Y6")
    play(state, "take G6", "stash R1 R2 R3", "stash R2 R3 R4")
    assert state.stash(0) == ["R3", "R4"] and state.safe(0) == []
    play(state, "stash R3 R4 R5")
    assert state.stash(0) == [] and state.safe(0) == ["R3", "R4", "R5"]
    assert state.scores()[0] == 12 + 3
    play(state, "end", "Y3", "take B6")
    # P1 holds G5 B5 Y5 but nothing of P0's can be stolen: no steal is offered
    assert not [a for a in legal(state) if a.startswith("steal")]


# ----- stealing -----------------------------------------------------------------------
def _robbery_table(p1_extra: str = "G1 B1 B2", p0_extra: str = "Y6 Y6"):
    """P0 stashes R3 (open); P1 then holds three 5s and takes a card."""
    state = start({"box": "small", "players": 2, "hand_size": 6},
                  ["R1 R2 R3 G4 " + p0_extra, "G5 G5 B5 " + p1_extra], "Y1 Y2 Y3")
    play(state, "take Y1", "stash R1 R2 R3", "end", "B4", "take Y2")
    assert state.current_player() == 1
    return state


def test_unstoppable_steal():
    """I11: one value in three colours: the thief takes the treasure at once, the set is
    discarded, the victim gets Marianne."""
    state = start({"box": "small", "players": 2, "hand_size": 6},
                  ["R1 R2 R3 G4 Y6 Y6", "G5 R5 B5 G1 B1 B2"], "Y1 Y2 Y3")
    play(state, "take Y1", "stash R1 R2 R3", "end", "B4", "take Y2")
    assert "steal R5 G5 B5" in legal(state)
    play(state, "steal R5 G5 B5")
    assert legal(state) == ["rob 0 R3"]
    play(state, "rob 0 R3")
    assert state.current_player() == 1 and state.phase == "act"   # no counter node
    assert state.stash(1) == ["R3"] and state.stash(0) == []
    assert state.hand(1) == ["G1", "B1", "B2", "Y2"]
    assert state.marianne == 0
    assert state.scores() == [1, 3]


def test_repeated_colour_steal_can_be_countered():
    """I13, I15, I16: G5 G5 B5 repeats a colour: the victim may show a 5; the thief then
    discards one card of the set, the other two go back to his hand, the treasure
    stays and the victim keeps his card; Marianne does not move."""
    state = _robbery_table(p0_extra="Y5 Y6")
    play(state, "steal G5 G5 B5", "rob 0 R3")
    assert state.current_player() == 0
    assert legal(state) == ["counter Y5", "allow"]
    play(state, "counter Y5")
    assert state.current_player() == 1 and legal(state) == ["lose G5", "lose B5"]
    play(state, "lose G5")
    assert state.hand(1) == ["G1", "G5", "B1", "B2", "B5", "Y2"]
    assert state.stash(0) == ["R3"] and "Y5" in state.hand(0)
    assert state.marianne == -1 and state.phase == "act"
    assert "end" in legal(state)


def test_counter_needs_a_card_of_that_value_and_allow_lets_it_happen():
    """I13, I14: without a 5 the victim can only allow; the theft then succeeds."""
    state = _robbery_table()
    play(state, "steal G5 G5 B5", "rob 0 R3")
    assert state.current_player() == 0 and legal(state) == ["allow"]
    play(state, "allow")
    assert state.stash(1) == ["R3"] and state.stash(0) == [] and state.marianne == 0
    assert "G5" not in state.hand(1) and "B5" not in state.hand(1)


def test_marianne_protects_the_last_robbed_player():
    """I14: the player just robbed cannot be robbed while Marianne is his; she moves to
    the next player robbed, and the first one can be robbed again."""
    state = start({"box": "small", "players": 3},
                  ["R1 R2 R3 Y1 Y2 Y3 B6 B6 Y6", "G1 G2 G3 B1 B1 Y4 Y4 R2 Y5",
                   "R5 G5 B5 R6 G6 Y6 R4 G4 B4"], "B2 B3 G2")
    play(state, "take B2", "stash R1 R2 R3", "stash Y1 Y2 Y3", "end", "R1",
         "take B3", "stash G1 G2 G3", "end", "Y1", "take G2")
    assert state.marianne == -1
    play(state, "steal R5 G5 B5")
    assert legal(state) == ["rob 0 R3", "rob 0 Y3", "rob 1 G3"]
    play(state, "rob 0 R3")
    assert state.marianne == 0
    play(state, "steal R6 G6 Y6")
    assert legal(state) == ["rob 1 G3"]   # P0 holds Marianne: his Y3 is protected
    play(state, "rob 1 G3")
    assert state.marianne == 1
    play(state, "steal R4 G4 B4")
    assert legal(state) == ["rob 0 Y3"]   # Marianne has moved on to P1
    play(state, "rob 0 Y3")
    assert state.marianne == 0 and state.stash(2) == ["R3", "G3", "Y3"]


def test_stolen_treasure_can_complete_a_safe_colour():
    """I10 applies to stolen treasures too: R6 R6 + a stolen R3 turn face down."""
    state = start({"box": "small", "players": 2},
                  ["R1 R2 R3 Y1 Y1 Y2 Y2 B6 B6", "R4 R5 R6 R4 R5 R6 G4 B4 Y4"],
                  "G1 G2 G3")
    play(state, "take G1", "stash R1 R2 R3", "end", "B1", "take G2",
         "stash R4 R5 R6", "stash R4 R5 R6")
    assert state.stash(1) == ["R6", "R6"] and state.safe(1) == []
    play(state, "steal G4 B4 Y4", "rob 0 R3")
    assert state.stash(1) == [] and state.safe(1) == ["R3", "R6", "R6"]


# ----- end of turn --------------------------------------------------------------------
def test_hand_limit_discards_the_surplus_at_the_end_of_the_turn():
    """I20: more than 9 cards at the end of the turn: discard down to 9 first."""
    state = start({"box": "small", "players": 2},
                  ["R1 R2 G3 G4 B5 B6 Y1 Y2 Y3", "R6 G6 B5 Y5 R1 G1 B1 Y4 Y5"],
                  "R4 G5 B3")
    play(state, "take R4")
    assert len(state.hand(0)) == 10     # more than 9 is fine during the turn
    play(state, "end")
    assert state.current_player() == 0 and state.phase == "discard"
    assert "end" not in legal(state) and "discard R4" in legal(state)
    play(state, "discard R4")
    assert len(state.hand(0)) == 9 and state.is_chance_node()
    assert state.discard_size == 1


def test_refill_turns_new_display_cards_then_next_player():
    """I21: at the end of the turn the display is refilled to three from the pile."""
    state = start({"box": "small", "players": 2, "hand_size": 4},
                  ["R3 R4 G1 B2", "R6 G6 B5 Y5"], "R5 Y5 Y6")
    play(state, "take R5 Y6", "stash R3 R4 R5", "end")
    assert state.is_chance_node() and state.display() == ["Y5"]
    pile = state.pile_size
    play(state, "G2")
    assert state.is_chance_node()
    play(state, "B1")
    assert state.display() == ["G2", "B1", "Y5"]
    assert state.pile_size == pile - 2 and state.current_player() == 1
    info = state.information_state_string(1)
    assert info.endswith("0:end; show G2; show B1")


def test_second_pile_and_end_of_game():
    """I18, I19, I22: when the first pile is empty the discards form the second pile;
    when it is empty the game ends; the higher score (treasures + gold) wins."""
    params = {"box": "small", "players": 2, "colours": 3, "values": 3, "copies": 2, "hand_size": 3,
              "gold": "1x2+1x1"}
    state = start(params, ["R1 R2 B1", "G1 G2 B2"], "R3 G3 B3")
    play(state, "take R3", "stash R1 R2 R3", "end", "R1",
         "take G3", "stash G1 G2 G3", "end", "R2")
    assert state.gold(0) == 2 and state.gold(1) == 1 and state.discard_size == 4
    second = None
    while not state.is_terminal():
        if state.is_chance_node():
            if state.pile_number == 2 and second is None:
                second = state.pile_size
                assert "second pile" in state.information_state_string(0)
            play(state, state.action_to_string(state.chance_outcomes()[0][0]))
        elif state.phase == "take":
            play(state, legal(state)[0])
            play(state, "end")
        else:
            play(state, legal(state)[0])   # hand-limit discards
    assert second == 4                      # the four discarded run cards
    assert state.pile_number == 2 and state.pile_size == 0
    assert state.scores() == [3 + 2, 3 + 1]
    assert state.returns() == [1.0, -1.0]


def test_end_display_plays_on_until_the_last_face_up_treasure_is_taken():
    """I19 `end=display` (the published box's end): once the second pile is used up the
    game goes on without refills until the display is empty; `end=pile` stops at once."""
    for end in ("display", "pile"):
        params = {"box": "small", "players": 2, "colours": 3, "values": 3, "copies": 2,
                  "hand_size": 3, "gold": "1x2+1x1", "end": end}
        state = start(params, ["R1 R2 B1", "G1 G2 B2"], "R3 G3 B3")
        rng = random.Random(5)
        while not (state.pile_number == 2 and state.pile_size == 0):
            if state.is_chance_node():
                play(state, state.action_to_string(state.chance_outcomes()[0][0]))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        if end == "pile":
            assert state.is_terminal()
            continue
        takes_after = 0
        while not state.is_terminal():
            assert not state.is_chance_node()          # no refill any more
            if state.phase == "take":
                takes_after += 1
            state.apply_action(rng.choice(state.legal_actions()))
        assert state.display() == [] and takes_after >= 1


def test_utility_is_a_zero_sum_ranking():
    """I22: best score(s) share the win; ties split; everyone tied: 0."""
    assert utilities([5, 4]) == [1.0, -1.0]
    assert utilities([4, 4]) == [0.0, 0.0]
    assert utilities([5, 1, 2]) == [1.0, -0.5, -0.5]
    assert utilities([5, 5, 2]) == [0.25, 0.25, -0.5]
    assert utilities([3, 3, 3]) == [0.0, 0.0, 0.0]
    assert sum(utilities([7, 7, 1, 0])) == pytest.approx(0.0)


# ----- information --------------------------------------------------------------------
def test_information_states_hide_other_hands():
    """I23: a player's information state does not depend on another player's hand."""
    a = start({"box": "small", "players": 2, "hand_size": 4}, ["R1 G2 B3 Y4", "R6 G6 B5 Y5"], "R3 G4 Y6")
    b = start({"box": "small", "players": 2, "hand_size": 4}, ["R1 G2 B3 Y4", "R5 G5 B6 Y6"], "R3 G4 Y6")
    for s in (a, b):
        play(s, "take R3", "end", "Y1")
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.information_state_string(1) != b.information_state_string(1)
    assert a.observation_string(0) == b.observation_string(0)
    info = a.information_state_string(0)
    assert "deal R1" in info and "deal P1 ?" in info and "G6" not in info
    assert a.information_state_string(1).startswith("P1; deal P0 ?")
    # OpenSpiel's own path (through the observer) gives the same strings
    game = pyspiel.load_game("robin_des_bois", {"box": "small", "players": 2, "hand_size": 4})
    obs = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    assert obs.string_from(a, 0) == info


# ----- bad parameters -----------------------------------------------------------------
@pytest.mark.parametrize("params, message", [
    ({"players": 7}, r"players=7 is out of range: use 3\.\.6"),
    ({"players": 2}, r"players=2 is out of range: use 3\.\.6.*box=small allows 2"),
    ({"box": "small", "players": 5}, r"the deck has 48 cards.*need at least 49"),
    ({"box": "tiny"}, r"unknown box 'tiny'"),
    ({"end": "never"}, r"end='never' is not one of display, pile"),
    ({"colours": 2}, r"colours=2 is out of range: use 3\.\.8.*three different colours"),
    ({"values": 2}, r"values=2 is out of range: use 3\.\.20.*run of three"),
    ({"copies": 7}, r"copies=7 is out of range"),
    ({"gold": "1x0"}, r"gold card's value=0 is out of range"),
    ({"gold": "a+b"}, r"gold='a\+b'.*not COUNTxVALUE"),
    ({"hand_size": 0}, r"hand_size=0 is out of range"),
    ({"box": "small", "players": 4, "copies": 1}, r"the deck has 24 cards.*need at least 40: add colours"),
    ({"hand_limit": 0}, r"hand_limit=0 is out of range"),
])
def test_bad_parameters_raise_value_error(params, message):
    with pytest.raises(ValueError, match=message):
        from_params(params)
    with pytest.raises((ValueError, pyspiel.SpielError, RuntimeError)):
        pyspiel.load_game("robin_des_bois", params)


def test_rules_dataclass_validates_and_unknown_parameters():
    with pytest.raises(RulesError, match="must be an integer"):
        Rules(values=2.5)
    with pytest.raises(RulesError, match=r"unknown parameter\(s\) \['colors'\]"):
        from_params({"colors": 4})
    assert robin_des_bois.PARAMETER_DEFAULTS["players"] == 3
