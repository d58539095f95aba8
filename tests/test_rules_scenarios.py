"""One scenario per rule clause of docs/rules.md, driven only by a fixed `layout` and
action strings (docs/game-interface.md).

Every test names the clause it pins down. Positions are 0-based; with a layout the card
at position i is the i-th name, the Traitor starts face up, and there are no deal chance
nodes.
"""

from __future__ import annotations

import pyspiel
import pytest

import game_def
from game_def import play


# ----- helpers ------------------------------------------------------------------------
def _fmt(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def load(layout: str, **options: object) -> pyspiel.Game:
    """Game with this fixed deal; the deck is the layout's own cards joined by '+'."""
    opts = [f"layout={layout}"] + [f"{k}={_fmt(v)}" for k, v in options.items()]
    return game_def.load_game(f"{layout}:{','.join(opts)}")


def legal(state: pyspiel.State) -> list[str]:
    """What the current player is offered, in action-id order."""
    return [state.action_to_string(a) for a in state.legal_actions()]


def chance(state: pyspiel.State) -> list[tuple[str, float]]:
    assert state.is_chance_node()
    return [(state.action_to_string(a), p) for a, p in state.chance_outcomes()]


def info(state: pyspiel.State, player: int) -> str:
    return state.information_state_string(player)


RSPX = "Robin+Sheriff+Peasant+Traitor"                 # 0 Robin, 1 Sheriff, 2 Peasant, 3 Traitor
MONK5 = "Monk+Robin+Sheriff+Peasant+Traitor"           # 0 Monk ... 4 Traitor
WITCH5 = "Witch+Robin+Sheriff+Peasant+Traitor"
TRICK5 = "Trickster+Robin+Sheriff+Peasant+Traitor"
DEPUTY5 = "Deputy+Robin+Sheriff+Peasant+Traitor"
TEAM5 = "Innkeeper+Robin+Sheriff+Peasant+Traitor"


# ----- deal ---------------------------------------------------------------------------
def test_layout_is_a_fixed_deal_with_the_traitor_face_up():
    """Deal: `layout` fixes the deal, no deal chance nodes; the Traitor starts face up
    wherever the layout puts it and cannot be used or peeked."""
    state = play(load("Traitor+Robin+Sheriff+Peasant"))
    assert not state.is_chance_node()
    assert state.current_player() == 0
    assert state.cards == ("Traitor", "Robin", "Sheriff", "Peasant")
    assert state.face_up == (True, False, False, False)
    assert state.strikes == (0, 0)
    assert state.turns_played == 0
    assert legal(state) == ["peek 1", "peek 2", "peek 3"]


def test_named_deck_with_matching_layout_and_pyspiel_entry_point_agree():
    """Options: `deck` may be named when it matches the layout; pyspiel.load_game with
    `+`-joined parameters builds the same game."""
    by_spec = game_def.load_game(f"rspx:layout={RSPX}")
    by_params = pyspiel.load_game("robin_wood", {"layout": RSPX, "deck": "rspx"})
    for game in (by_spec, by_params):
        state = play(game, "peek 0")
        assert state.cards == ("Robin", "Sheriff", "Peasant", "Traitor")
        assert legal(state) == ["silent", "announce Robin", "announce Sheriff",
                                "announce Peasant"]


def test_standard_deck_offers_every_announceable_character():
    """A turn: after a peek, `silent` or `announce <C>` for Robin, Companion, Sheriff,
    Deputy, Peasant, Monk, Witch (never Trickster or Traitor)."""
    layout = ("Robin+Companion+Companion+Sheriff+Deputy+Deputy+Peasant+Peasant+"
              "Trickster+Monk+Witch+Traitor")
    game = game_def.load_game(f"standard:layout={layout}")
    state = play(game, "peek 0")
    assert legal(state) == ["silent", "announce Robin", "announce Companion",
                            "announce Sheriff", "announce Deputy", "announce Peasant",
                            "announce Monk", "announce Witch"]


def test_silent_ends_the_turn():
    """A turn: `silent` puts the card back face down and ends the turn."""
    state = play(load(RSPX), "peek 0", "silent")
    assert state.current_player() == 1
    assert state.turns_played == 1
    assert state.face_up == (False, False, False, True)
    assert info(state, 0) == "P0; 0:peek 0; 0=Robin; 0:silent"
    assert info(state, 1) == "P1; 0:peek 0; 0:silent"


# ----- Traitor ------------------------------------------------------------------------
def test_traitor_peek_strikes_turns_face_up_and_ends_the_turn():
    """A turn, peek of a Traitor: it goes face up for good, the peeker takes a strike,
    the turn ends; everybody learns the card."""
    # The Monk turns the Traitor face down first (a layout always starts it face up).
    state = play(load(MONK5), "peek 0", "announce Monk", "pass", "pick 4")
    assert not state.face_up[4]
    assert state.current_player() == 1
    state = play(state, "peek 4")
    assert state.events == frozenset({"traitor_hit"})
    assert state.strikes == (0, 1)
    assert state.face_up[4]
    assert not state.is_terminal()
    assert state.current_player() == 0
    assert state.turns_played == 2
    assert info(state, 0) == ("P0; 0:peek 0; 0=Monk; 0:announce Monk; 1:pass; 0:pick 4; "
                              "1:peek 4; 4=Traitor")
    assert info(state, 1) == ("P1; 0:peek 0; 0:announce Monk; 1:pass; 0:pick 4; "
                              "1:peek 4; 4=Traitor")


def test_traitor_peek_eliminates_an_already_struck_player():
    """Traitor + Strikes: a peeked Traitor's strike on a struck player eliminates him;
    the round ends at once (two players: the other wins)."""
    state = play(load(MONK5), "peek 0", "announce Monk", "challenge")
    assert state.strikes == (0, 1)          # true claim: the challenger is struck
    state = play(state, "pick 4", "peek 4")
    assert {"traitor_hit", "elimination"} <= state.events
    assert state.strikes == (0, 2)
    assert state.is_terminal()
    assert state.returns() == pytest.approx([1.0, -1.0])


# ----- Trickster ----------------------------------------------------------------------
def test_trickster_forces_a_lie_silent_not_offered():
    """A turn, peek of a Trickster: `silent` is not offered, the peeker must announce
    (a forced lie); unchallenged, the card stays face down."""
    game = load(TRICK5)
    assert legal(play(game, "peek 3")) == ["silent", "announce Robin", "announce Sheriff",
                                           "announce Peasant"]
    state = play(game, "peek 0")
    assert legal(state) == ["announce Robin", "announce Sheriff", "announce Peasant"]
    state = play(state, "announce Peasant", "pass")
    assert state.face_up == (False, False, False, False, True)
    assert state.strikes == (0, 0)
    assert state.current_player() == 1
    assert state.turns_played == 1


def test_challenged_trickster_is_a_lie():
    """Challenges, false claim: a challenged Trickster announcement is a lie: the
    announcer is struck, the card stays face up, no power runs."""
    state = play(load(TRICK5), "peek 0", "announce Robin", "challenge")
    assert state.events == frozenset({"challenge_right"})
    assert state.strikes == (1, 0)
    assert state.face_up[0]
    assert state.current_player() == 1          # no Robin power: turn over
    assert state.turns_played == 1
    assert info(state, 1) == "P1; 0:peek 0; 0:announce Robin; 1:challenge; 0=Trickster"
    assert legal(state) == ["peek 1", "peek 2", "peek 3", "use 0"]


# ----- Challenges ---------------------------------------------------------------------
def test_true_claim_challenged_strikes_challenger_and_power_runs():
    """Challenges, true claim: the card goes face up, the challenger takes a strike,
    then the power runs (here Robin unmasks the lone Sheriff and wins)."""
    state = play(load(RSPX), "peek 0", "announce Robin", "challenge")
    assert state.events == frozenset({"challenge_wrong"})
    assert state.strikes == (0, 1)
    assert state.face_up == (True, False, False, True)
    assert state.current_player() == 0
    assert legal(state) == ["reveal 1", "reveal 2"]
    assert info(state, 1) == "P1; 0:peek 0; 0:announce Robin; 1:challenge; 0=Robin"
    state = play(state, "reveal 1")
    assert "unmask_win" in state.events
    assert state.is_terminal()
    assert state.returns() == pytest.approx([1.0, -1.0])


def test_false_claim_challenged_strikes_announcer_and_no_power():
    """Challenges, false claim: the card goes face up, the announcer takes a strike,
    no power; the turn ends."""
    state = play(load(RSPX), "peek 2", "announce Robin", "challenge")
    assert state.events == frozenset({"challenge_right"})
    assert state.strikes == (1, 0)
    assert state.face_up == (False, False, True, True)
    assert state.current_player() == 1
    assert state.turns_played == 1
    assert legal(state) == ["peek 0", "peek 1", "use 2"]
    assert info(state, 1) == "P1; 0:peek 2; 0:announce Robin; 1:challenge; 2=Peasant"


def test_unchallenged_announcement_keeps_card_down_and_power_runs():
    """Challenges, not challenged: the card stays face down and the announced power runs
    (even on a lie: a Peasant announced as Robin unmasks)."""
    state = play(load(RSPX), "peek 2", "announce Robin", "pass")
    assert state.face_up == (False, False, False, True)
    assert state.strikes == (0, 0)
    assert state.current_player() == 0
    assert legal(state) == ["reveal 0", "reveal 1", "reveal 2"]
    assert info(state, 1) == "P1; 0:peek 2; 0:announce Robin; 1:pass"
    state = play(state, "reveal 1")
    assert state.is_terminal()
    assert state.returns() == pytest.approx([1.0, -1.0])


def test_announcing_a_character_already_face_up_is_legal():
    """A turn: announcing a character whose copies are all face up is legal (a visible
    lie); challenged, the liar is struck."""
    state = play(load(RSPX), "peek 0", "announce Robin", "challenge", "reveal 2")
    assert state.face_up[0] and state.strikes == (1, 1)
    state = play(state, "peek 1")
    assert "announce Robin" in legal(state)
    state = play(state, "announce Robin", "challenge")
    assert {"challenge_right", "elimination"} <= state.events
    assert state.strikes == (1, 2)
    assert state.is_terminal()
    assert state.returns() == pytest.approx([1.0, -1.0])


# ----- Robin / Sheriff ----------------------------------------------------------------
def test_robin_unmasks_step_by_step():
    """Powers, Robin: reveal face-down positions one at a time; each stays face up; the
    actor wins when the last Sheriff-camp card (Sheriff + Deputies) is up."""
    state = play(load("Robin+Sheriff+Deputy+Deputy+Peasant+Traitor"),
                 "peek 0", "announce Robin", "pass", "reveal 1")
    assert not state.is_terminal()
    assert state.face_up == (False, True, False, False, False, True)
    assert state.current_player() == 0
    assert legal(state) == ["reveal 0", "reveal 2", "reveal 3", "reveal 4"]
    state = play(state, "reveal 2")
    assert not state.is_terminal()
    assert legal(state) == ["reveal 0", "reveal 3", "reveal 4"]
    state = play(state, "reveal 3")
    assert "unmask_win" in state.events
    assert state.is_terminal()
    assert state.returns() == pytest.approx([1.0, -1.0])
    assert info(state, 1) == ("P1; 0:peek 0; 0:announce Robin; 1:pass; 0:reveal 1; "
                              "1=Sheriff; 0:reveal 2; 2=Deputy; 0:reveal 3; 3=Deputy")


def test_sheriff_unmasks_with_camp_cards_already_face_up():
    """Powers, Sheriff: camp cards already face up count (a Companion turned up by a
    challenge), so revealing Robin completes the unmasking."""
    state = play(load("Sheriff+Robin+Companion+Peasant+Traitor"),
                 "peek 2", "announce Companion", "challenge")
    assert state.face_up[2] and state.strikes == (0, 1)
    state = play(state, "peek 0", "announce Sheriff", "pass")
    assert legal(state) == ["reveal 0", "reveal 1", "reveal 3"]
    state = play(state, "reveal 1")
    assert "unmask_win" in state.events
    assert state.is_terminal()
    assert state.returns() == pytest.approx([1.0, -1.0])


def test_unmasking_a_camp_already_all_face_up_wins_at_once():
    """Powers, Robin/Sheriff: if every card of the opposing camp is face up when the
    power starts, the actor wins at once (no reveal)."""
    state = play(load(RSPX), "peek 0", "announce Robin", "challenge", "reveal 2")
    assert state.face_up == (True, False, True, True)
    state = play(state, "peek 1", "announce Sheriff", "pass")
    assert "unmask_win" in state.events
    assert state.is_terminal()
    assert state.returns() == pytest.approx([-1.0, 1.0])


def test_unmask_mistake_strikes_and_ends_the_power():
    """Powers, Robin: a revealed card outside the camp is a mistake: one strike, it
    stays face up, the power (and the turn) ends."""
    state = play(load(RSPX), "peek 0", "announce Robin", "pass", "reveal 2")
    assert state.events == frozenset({"unmask_mistake"})
    assert state.strikes == (1, 0)
    assert state.face_up == (False, False, True, True)
    assert not state.is_terminal()
    assert state.current_player() == 1
    assert state.turns_played == 1
    assert info(state, 1) == "P1; 0:peek 0; 0:announce Robin; 1:pass; 0:reveal 2; 2=Peasant"


def _sheriff_reveals_traitor(**options: object) -> pyspiel.State:
    # P0's Monk turns the Traitor face down; P1's Sheriff then reveals it.
    return play(load(MONK5, **options), "peek 0", "announce Monk", "pass", "pick 4",
                "peek 2", "announce Sheriff", "pass", "reveal 4")


def test_revealed_traitor_is_an_ordinary_mistake_by_default():
    """Powers, Robin/Sheriff: a Traitor revealed by an unmasking is an ordinary mistake:
    one strike (traitor_strikes_on_reveal=false)."""
    state = _sheriff_reveals_traitor()
    assert "unmask_mistake" in state.events
    assert "traitor_hit" not in state.events
    assert state.strikes == (0, 1)
    assert state.face_up[4]
    assert not state.is_terminal()
    assert state.current_player() == 0
    assert state.turns_played == 2


def test_revealed_traitor_adds_its_strike_with_option_on():
    """Option traitor_strikes_on_reveal=true: the Traitor's own strike is added, two in
    all (strikes=3 so the actor survives; with the default 2 he is eliminated)."""
    state = _sheriff_reveals_traitor(traitor_strikes_on_reveal=True, strikes=3)
    assert "unmask_mistake" in state.events
    assert state.strikes == (0, 2)
    assert not state.is_terminal()
    state = _sheriff_reveals_traitor(traitor_strikes_on_reveal=True)
    assert "elimination" in state.events
    assert state.is_terminal()
    assert state.returns() == pytest.approx([1.0, -1.0])


# ----- Deputy -------------------------------------------------------------------------
def _deputy_picks_face_up_cards() -> pyspiel.State:
    # P0 lies about the Peasant (challenged: it goes face up); P1's Deputy then picks the
    # face-up Traitor (4) and the face-up Peasant (3).
    state = play(load(DEPUTY5), "peek 3", "announce Robin", "challenge",
                 "peek 0", "announce Deputy", "pass")
    assert state.face_up == (False, False, False, True, True)
    assert legal(state) == ["pick 0", "pick 1", "pick 2", "pick 3", "pick 4"]
    state = play(state, "pick 4")
    assert legal(state) == ["pick 0", "pick 1", "pick 2", "pick 3"]   # distinct
    return play(state, "pick 3")


def test_deputy_picks_face_up_cards_and_shuffles_blind():
    """Powers, Deputy: two distinct positions (face up or down, the Traitor too); chance
    `shuffle keep` / `shuffle swap` 1/2 each; both end face down."""
    state = _deputy_picks_face_up_cards()
    assert chance(state) == [("shuffle keep", pytest.approx(0.5)),
                             ("shuffle swap", pytest.approx(0.5))]
    keep = play(state, "shuffle keep")
    swap = play(state, "shuffle swap")
    assert keep.cards == ("Deputy", "Robin", "Sheriff", "Peasant", "Traitor")
    assert swap.cards == ("Deputy", "Robin", "Sheriff", "Traitor", "Peasant")
    for after in (keep, swap):
        assert after.face_up == (False,) * 5
        assert after.current_player() == 0
        assert after.turns_played == 2
        assert legal(after) == ["peek 0", "peek 1", "peek 2", "peek 3", "peek 4"]
    # The swap is real: position 3 now holds the Traitor in one world only.
    assert "traitor_hit" in play(swap, "peek 3").events
    assert legal(play(keep, "peek 3"))[0] == "silent"


def test_deputy_shuffle_is_hidden_from_everybody():
    """Powers, Deputy: nobody observes the shuffle: info and observation strings of both
    players are identical after `shuffle keep` and `shuffle swap`."""
    state = _deputy_picks_face_up_cards()
    keep = play(state, "shuffle keep")
    swap = play(state, "shuffle swap")
    for p in (0, 1):
        assert info(keep, p) == info(swap, p)
        assert keep.observation_string(p) == swap.observation_string(p)
    assert info(keep, 0).endswith("1:peek 0; 1:announce Deputy; 0:pass; 1:pick 4; 1:pick 3")


# ----- Companion ----------------------------------------------------------------------
COMPANIONS = "Companion+Companion+Robin+Sheriff+Peasant+Traitor"


def test_companion_chains_extra_turns():
    """Powers, Companion: the actor plays another turn at once (chains allowed); each
    extra turn is a new turn."""
    state = play(load(COMPANIONS), "peek 0", "announce Companion", "pass")
    assert state.current_player() == 0
    assert state.turns_played == 1
    assert legal(state)[0].startswith("peek")
    state = play(state, "peek 1", "announce Companion", "pass")
    assert state.current_player() == 0
    assert state.turns_played == 2
    state = play(state, "peek 4", "silent")
    assert state.current_player() == 1
    assert state.turns_played == 3


def test_companion_extra_turns_count_against_the_cap():
    """Powers, Companion + turn cap: extra turns count against max_turns; two Companion
    turns with max_turns=2 end the round in a draw."""
    state = play(load(COMPANIONS, max_turns=2), "peek 0", "announce Companion", "pass")
    assert not state.is_terminal()
    state = play(state, "peek 1", "announce Companion", "pass")
    assert "turn_cap" in state.events
    assert state.is_terminal()
    assert state.returns() == pytest.approx([0.0, 0.0])


# ----- Monk ---------------------------------------------------------------------------
def test_monk_flips_face_down_card_up_seen_by_all_no_power():
    """Powers, Monk: a card flipped face up is seen by all; its power does not run
    (a Robin turned up does not unmask)."""
    state = play(load(MONK5), "peek 0", "announce Monk", "pass")
    assert legal(state) == ["pick 0", "pick 1", "pick 2", "pick 3", "pick 4"]
    state = play(state, "pick 1")
    assert state.face_up == (False, True, False, False, True)
    assert not state.is_terminal()
    assert state.strikes == (0, 0)
    assert state.current_player() == 1
    assert state.turns_played == 1
    assert info(state, 0).endswith("; 0:pick 1; 1=Robin")
    assert info(state, 1) == "P1; 0:peek 0; 0:announce Monk; 1:pass; 0:pick 1; 1=Robin"
    assert legal(state) == ["peek 0", "peek 2", "peek 3", "use 1"]


def test_monk_may_flip_itself():
    """Powers, Monk: `pick` one position, itself allowed."""
    state = play(load(MONK5), "peek 0", "announce Monk", "pass", "pick 0")
    assert state.face_up == (True, False, False, False, True)
    assert info(state, 1) == "P1; 0:peek 0; 0:announce Monk; 1:pass; 0:pick 0; 0=Monk"


def test_monk_flips_face_up_down_and_a_traitor_up_costs_nothing():
    """Powers, Monk: face up to face down; a Traitor flipped face up costs nothing."""
    state = play(load(MONK5), "peek 0", "announce Monk", "pass", "pick 4")
    assert state.face_up == (False,) * 5
    assert info(state, 1) == "P1; 0:peek 0; 0:announce Monk; 1:pass; 0:pick 4"
    state = play(state, "peek 0", "announce Monk", "pass", "pick 4")
    assert state.face_up == (False, False, False, False, True)
    assert state.strikes == (0, 0)
    assert "traitor_hit" not in state.events
    assert info(state, 0).endswith("1:pick 4; 4=Traitor")
    assert info(state, 1).endswith("1:pick 4; 4=Traitor")


# ----- Witch --------------------------------------------------------------------------
def test_witch_looks_privately_and_keeps_or_swaps_unseen():
    """Powers, Witch: pick a position other than the Witch card; the actor sees it, the
    others see the positions only; keep/swap is the actor's secret; both end face down."""
    state = play(load(WITCH5), "peek 0", "announce Witch", "pass")
    assert legal(state) == ["pick 1", "pick 2", "pick 3", "pick 4"]
    state = play(state, "pick 1")
    assert state.current_player() == 0
    assert legal(state) == ["keep", "swap"]
    assert info(state, 0) == ("P0; 0:peek 0; 0=Witch; 0:announce Witch; 1:pass; "
                              "0:pick 1; 1=Robin")
    assert info(state, 1) == "P1; 0:peek 0; 0:announce Witch; 1:pass; 0:pick 1"
    keep = play(state, "keep")
    swap = play(state, "swap")
    assert keep.cards == ("Witch", "Robin", "Sheriff", "Peasant", "Traitor")
    assert swap.cards == ("Robin", "Witch", "Sheriff", "Peasant", "Traitor")
    for after in (keep, swap):
        assert after.face_up == (False, False, False, False, True)
        assert after.current_player() == 1
        assert after.turns_played == 1
    assert info(keep, 0) == info(state, 0) + "; 0:keep"
    assert info(swap, 0) == info(state, 0) + "; 0:swap"
    assert info(keep, 1) == info(swap, 1) == info(state, 1)
    assert keep.observation_string(1) == swap.observation_string(1)
    # Observation (game-interface.md): the actor holds the looked-at card in hand now.
    assert "Robin" in state.observation_string(0)
    assert "Robin" not in state.observation_string(1)


def test_witch_takes_the_traitor_without_a_strike():
    """Powers, Witch: taking the Traitor costs nothing; it ends face down where the
    actor put it (a later peek of it strikes as usual)."""
    state = play(load(WITCH5), "peek 0", "announce Witch", "pass", "pick 4")
    assert state.strikes == (0, 0)
    assert "traitor_hit" not in state.events
    state = play(state, "swap")
    assert state.cards == ("Traitor", "Robin", "Sheriff", "Peasant", "Witch")
    assert state.face_up == (False,) * 5
    state = play(state, "peek 0")
    assert "traitor_hit" in state.events
    assert state.strikes == (0, 1)


def test_witch_face_up_after_challenge_ends_face_down():
    """Powers, Witch: the Witch card (here face up after a true challenge) cannot be
    picked, and both cards end face down."""
    state = play(load(WITCH5), "peek 0", "announce Witch", "challenge")
    assert state.strikes == (0, 1) and state.face_up[0]
    assert legal(state) == ["pick 1", "pick 2", "pick 3", "pick 4"]
    state = play(state, "pick 2", "swap")
    assert state.cards == ("Sheriff", "Robin", "Witch", "Peasant", "Traitor")
    assert state.face_up == (False, False, False, False, True)


# ----- use of face-up cards -----------------------------------------------------------
def test_face_up_peasant_and_trickster_are_passes_traitor_not_usable():
    """A turn, `use`: a face-up Peasant or Trickster does nothing (a pass); a face-up
    Traitor cannot be used."""
    state = play(load("Trickster+Peasant+Robin+Sheriff+Traitor"),
                 "peek 1", "announce Robin", "challenge",      # P0 lies: Peasant up
                 "peek 0", "announce Peasant", "challenge")    # P1 forced lie: Trickster up
    assert state.strikes == (1, 1)
    assert state.face_up == (True, True, False, False, True)
    assert state.current_player() == 0
    assert legal(state) == ["peek 2", "peek 3", "use 0", "use 1"]
    state = play(state, "use 1")
    assert state.current_player() == 1
    assert state.turns_played == 3
    assert state.strikes == (1, 1)
    assert state.face_up == (True, True, False, False, True)
    state = play(state, "use 0")
    assert state.current_player() == 0
    assert state.turns_played == 4
    assert state.face_up == (True, True, False, False, True)


def test_use_of_a_face_up_robin_runs_unchallenged():
    """A turn, `use`: a face-up card's power runs and is never challenged."""
    state = play(load(RSPX), "peek 0", "announce Robin", "challenge", "reveal 2")
    assert state.current_player() == 1
    assert legal(state) == ["peek 1", "use 0", "use 2"]
    state = play(state, "use 0")
    assert state.current_player() == 1
    assert legal(state) == ["reveal 1"]
    state = play(state, "reveal 1")
    assert state.is_terminal()
    assert state.returns() == pytest.approx([-1.0, 1.0])


# ----- strikes, elimination, cap ------------------------------------------------------
def test_elimination_ends_the_round_at_once_even_mid_turn():
    """End of the round: a strike that leaves a single player ends the round at once,
    even before the announced power runs (strikes=1, a true claim challenged)."""
    state = play(load(RSPX, strikes=1), "peek 0", "announce Robin", "challenge")
    assert "elimination" in state.events
    assert state.is_terminal()
    assert state.strikes == (0, 1)
    assert state.returns() == pytest.approx([1.0, -1.0])


def test_strikes_one_first_strike_eliminates():
    """Option strikes=1: the first strike eliminates (here the announcer, caught lying)."""
    state = play(load(RSPX, strikes=1), "peek 2", "announce Robin", "challenge")
    assert {"challenge_right", "elimination"} <= state.events
    assert state.is_terminal()
    assert state.returns() == pytest.approx([-1.0, 1.0])


def test_strikes_three_needs_three_strikes():
    """Option strikes=3: two strikes do not eliminate; the third does."""
    state = play(load(RSPX, strikes=3),
                 "peek 2", "announce Robin", "challenge",      # P0: 1
                 "peek 0", "silent",
                 "peek 1", "announce Robin", "challenge")      # P0: 2
    assert state.strikes == (2, 0)
    assert not state.is_terminal()
    state = play(state, "peek 0", "silent")
    assert legal(state) == ["peek 0", "use 1", "use 2"]
    state = play(state, "peek 0", "announce Sheriff", "challenge")
    assert state.strikes == (3, 0)
    assert state.is_terminal()
    assert state.returns() == pytest.approx([-1.0, 1.0])


def test_turn_cap_is_a_draw():
    """End of the round: after max_turns turns the round is a draw, 0 to each."""
    state = play(load(RSPX, max_turns=2), "peek 2", "silent")
    assert not state.is_terminal()
    assert state.turns_played == 1
    state = play(state, "peek 2", "silent")
    assert state.events == frozenset({"turn_cap"})
    assert state.is_terminal()
    assert state.turns_played == 2
    assert state.returns() == pytest.approx([0.0, 0.0])


def test_turn_cap_last_turn_is_played_out_and_a_win_counts():
    """End of the round: the cap is checked when a turn ends, so the last turn is played
    out; a win (or an elimination) in it counts."""
    state = play(load(RSPX, max_turns=1), "peek 0", "announce Robin", "pass")
    assert not state.is_terminal()
    state = play(state, "reveal 1")
    assert state.is_terminal()
    assert "turn_cap" not in state.events
    assert state.returns() == pytest.approx([1.0, -1.0])
    state = play(load(RSPX, max_turns=1, strikes=1), "peek 2", "announce Robin", "challenge")
    assert state.is_terminal()
    assert state.returns() == pytest.approx([-1.0, 1.0])


# ----- three and four players ---------------------------------------------------------
def test_three_players_clockwise_challenges_from_the_announcers_left():
    """Challenges, 3 players: responders asked one at a time clockwise from the
    announcer's left; payoffs +1 / -1/(n-1)."""
    state = play(load(RSPX, players=3), "peek 2", "silent", "peek 0", "announce Robin")
    assert state.current_player() == 2
    assert legal(state) == ["challenge", "pass"]
    state = play(state, "pass")
    assert state.current_player() == 0
    state = play(state, "challenge")
    assert state.events == frozenset({"challenge_wrong"})
    assert state.strikes == (1, 0, 0)
    assert state.current_player() == 1
    state = play(state, "reveal 1")
    assert state.is_terminal()
    assert state.returns() == pytest.approx([-0.5, 1.0, -0.5])


def test_three_players_first_challenge_stops_the_choices():
    """Challenges, 3 or 4 players: the first `challenge` ends the round of choices (the
    player after the challenger is never asked)."""
    state = play(load(RSPX, players=3), "peek 2", "silent",
                 "peek 2", "announce Robin", "challenge")    # P1 lies, P2 challenges
    assert state.strikes == (0, 1, 0)
    assert state.current_player() == 2           # P2's turn; P0 was not asked
    assert state.turns_played == 2
    assert legal(state) == ["peek 0", "peek 1", "use 2"]


def test_four_players_challenge_order_and_payoffs():
    """Challenges, 4 players: clockwise from the announcer's left, wrapping round;
    payoffs +1 to the winner, -1/3 to each other player."""
    state = play(load(RSPX, players=4), "peek 2", "silent", "peek 2", "silent",
                 "peek 0", "announce Robin")
    assert state.current_player() == 3
    state = play(state, "pass")
    assert state.current_player() == 0
    state = play(state, "pass")
    assert state.current_player() == 1
    state = play(state, "pass")
    assert state.current_player() == 2
    assert legal(state) == ["reveal 0", "reveal 1", "reveal 2"]
    state = play(state, "reveal 1")
    assert state.is_terminal()
    assert state.returns() == pytest.approx([-1 / 3, -1 / 3, 1.0, -1 / 3])


def test_eliminated_players_skipped_in_turns_and_challenges():
    """Strikes: eliminated players neither play nor challenge; turn order skips them; the
    round goes on while two players are left."""
    game = load(RSPX, players=3, strikes=1)
    state = play(game, "peek 2", "announce Robin", "challenge")   # P0 eliminated by P1
    assert state.strikes == (1, 0, 0)
    assert not state.is_terminal()
    assert state.current_player() == 1
    turns = play(state, "peek 0", "silent", "peek 0", "silent")
    assert turns.current_player() == 1           # P2 -> P1, skipping P0
    state = play(state, "peek 0", "announce Robin")
    assert state.current_player() == 2
    state = play(state, "pass")
    assert state.current_player() == 1           # P0 not asked: Robin's power runs
    state = play(state, "reveal 1")
    assert state.is_terminal()
    assert state.returns() == pytest.approx([-0.5, 1.0, -0.5])


def test_challenger_eliminated_then_power_runs_three_players():
    """Challenges + Strikes, 3 players: a challenger eliminated by a true claim leaves two
    players, so the round goes on and the announced power runs."""
    state = play(load(RSPX, players=3, strikes=1), "peek 0", "announce Robin", "challenge")
    assert {"challenge_wrong", "elimination"} <= state.events
    assert state.strikes == (0, 1, 0)
    assert not state.is_terminal()
    assert state.current_player() == 0
    assert legal(state) == ["reveal 1", "reveal 2"]
    state = play(state, "reveal 1")
    assert state.returns() == pytest.approx([1.0, -0.5, -0.5])


def test_first_player_option_and_clockwise_turns():
    """Options first_player; Strikes: turn order is clockwise (increasing seat index)."""
    state = play(load(RSPX, players=3, first_player=2))
    assert state.current_player() == 2
    assert play(state, "peek 2", "silent").current_player() == 0
    assert play(state, "peek 2", "announce Robin").current_player() == 0  # announcer's left
    assert play(load(RSPX, first_player=1)).current_player() == 1


def test_last_player_standing_wins_three_players():
    """End of the round: when a single player is left he wins at once (3 players)."""
    state = play(load(RSPX, players=3, strikes=1),
                 "peek 2", "announce Robin", "challenge",       # P0 out (P1 challenges)
                 "peek 1", "announce Robin", "challenge")       # P1 out (P2 challenges)
    assert state.is_terminal()
    assert state.strikes == (1, 1, 0)
    assert state.returns() == pytest.approx([-0.5, -0.5, 1.0])


# ----- challenge_order=random ---------------------------------------------------------
def test_random_challenge_order_uses_fastest_chance_nodes():
    """Option challenge_order=random: before each choice a chance node `fastest <q>`
    picks uniformly among those not yet asked; none when only one is left."""
    state = play(load(RSPX, players=4, challenge_order="random"), "peek 0", "announce Robin")
    assert chance(state) == [("fastest 1", pytest.approx(1 / 3)),
                             ("fastest 2", pytest.approx(1 / 3)),
                             ("fastest 3", pytest.approx(1 / 3))]
    state = play(state, "fastest 3")
    assert state.current_player() == 3
    state = play(state, "pass")
    assert chance(state) == [("fastest 1", pytest.approx(0.5)),
                             ("fastest 2", pytest.approx(0.5))]
    state = play(state, "fastest 1", "pass")
    assert not state.is_chance_node()            # only P2 is left: no chance node
    assert state.current_player() == 2
    state = play(state, "pass")
    assert state.current_player() == 0
    assert info(state, 2) == ("P2; 0:peek 0; 0:announce Robin; fastest 3; 3:pass; "
                              "fastest 1; 1:pass; 2:pass")


def test_random_challenge_order_first_challenge_stops():
    """Option challenge_order=random: the first challenge still ends the choices."""
    state = play(load(RSPX, players=4, challenge_order="random"),
                 "peek 0", "announce Robin", "fastest 2", "challenge")
    assert state.strikes == (0, 0, 1, 0)
    assert not state.is_chance_node()
    assert state.current_player() == 0
    assert legal(state) == ["reveal 1", "reveal 2"]


def test_random_challenge_order_skips_eliminated_players():
    """Option challenge_order=random + Strikes: `fastest` draws only among live players
    not yet asked; none once a single responder remains."""
    state = play(load(RSPX, players=4, strikes=1, challenge_order="random"),
                 "peek 2", "announce Robin", "fastest 3", "challenge")   # P0 out
    assert state.strikes == (1, 0, 0, 0)
    assert state.current_player() == 1
    state = play(state, "peek 0", "announce Robin")
    assert chance(state) == [("fastest 2", pytest.approx(0.5)),
                             ("fastest 3", pytest.approx(0.5))]
    state = play(state, "fastest 2", "pass")
    assert not state.is_chance_node()
    assert state.current_player() == 3


def test_random_challenge_order_two_players_has_no_chance_node():
    """Option challenge_order=random: with a single responder there is no chance node."""
    state = play(load(RSPX, challenge_order="random"), "peek 0", "announce Robin")
    assert not state.is_chance_node()
    assert state.current_player() == 1


# ----- team mode ----------------------------------------------------------------------
def test_innkeeper_signal_seen_by_the_actors_team_only():
    """Powers, Innkeeper (team mode): `pick` a position and `name <C>` (any character in
    the deck); only the actor and the partner see either."""
    state = play(load(TEAM5, players=4, teams=True), "peek 0")
    assert legal(state) == ["silent", "announce Robin", "announce Sheriff",
                            "announce Peasant", "announce Innkeeper"]
    state = play(state, "announce Innkeeper", "pass", "pass", "pass")
    assert state.current_player() == 0
    assert legal(state) == ["pick 0", "pick 1", "pick 2", "pick 3", "pick 4"]
    state = play(state, "pick 1")
    assert legal(state) == ["name Robin", "name Sheriff", "name Peasant", "name Traitor",
                            "name Innkeeper"]
    state = play(state, "name Robin")
    assert state.current_player() == 1
    assert state.turns_played == 1
    public = "0:peek 0; 0:announce Innkeeper; 1:pass; 2:pass; 3:pass"
    assert info(state, 0) == ("P0; 0:peek 0; 0=Innkeeper; 0:announce Innkeeper; 1:pass; "
                              "2:pass; 3:pass; 0:pick 1; 0:name Robin")
    assert info(state, 1) == f"P1; {public}"
    assert info(state, 2) == f"P2; {public}; 0:pick 1; 0:name Robin"
    assert info(state, 3) == f"P3; {public}"


def test_innkeeper_does_nothing_with_an_eliminated_partner():
    """Powers, Innkeeper: if the partner is eliminated the power does nothing (no pick,
    the turn ends); the eliminated partner is not asked to challenge."""
    state = play(load(TEAM5, players=4, teams=True, strikes=1),
                 "peek 1", "silent",                              # P0
                 "peek 1", "silent",                              # P1
                 "peek 3", "announce Robin", "challenge",         # P2 lies, P3: P2 out
                 "peek 1", "silent")                              # P3
    assert state.strikes == (0, 0, 1, 0)
    assert not state.is_terminal()
    assert state.current_player() == 0
    state = play(state, "peek 0", "announce Innkeeper", "pass")
    assert state.current_player() == 3                           # P2 skipped
    state = play(state, "pass")
    assert state.current_player() == 1
    assert state.turns_played == 5
    assert legal(state) == ["peek 0", "peek 1", "peek 2", "use 3"]


def test_team_unmasking_pays_each_partner():
    """Payoffs, teams (seats 0+2 against 1+3): +1 to each winner, -1 to each loser."""
    state = play(load(TEAM5, players=4, teams=True), "peek 0", "silent",
                 "peek 1", "announce Robin", "pass", "pass", "pass", "reveal 2")
    assert state.is_terminal()
    assert state.returns() == pytest.approx([-1.0, 1.0, -1.0, 1.0])


def test_team_loses_when_both_partners_are_eliminated():
    """End of the round, teams: one partner eliminated is not the end; both eliminated
    and the other team wins."""
    state = play(load(TEAM5, players=4, teams=True, strikes=1),
                 "peek 3", "announce Robin", "challenge")          # P0 out (P1)
    assert state.strikes == (1, 0, 0, 0)
    assert not state.is_terminal()
    state = play(state, "peek 0", "silent",                        # P1
                 "peek 2", "announce Robin", "challenge")          # P2 out (P3)
    assert state.is_terminal()
    assert state.returns() == pytest.approx([-1.0, 1.0, -1.0, 1.0])
