"""Bad input gets a one-line error that names the bad value and what would be accepted
(STYLE "Data and configuration"): variants through `variant.parse` and `load_game`,
action strings through `play`."""

from __future__ import annotations

import pytest

import game_def
from game_def import IllegalActionError, VariantError
from game_def.variant import parse

RSPX_LAYOUT = "rspx:layout=Robin+Sheriff+Peasant+Traitor"

# (variant text, substrings the message must contain)
BAD_VARIANTS = [
    # unknown deck: names the value and lists the named decks
    ("standrd", ["'standrd'", "standard", "rspx"]),
    # unknown character in a deck list: names it, lists the known characters
    ("Robin+Sherif+Peasant+Traitor", ["'Sherif'", "Robin, Companion, Sheriff"]),
    # unknown character in a layout
    ("rspx:layout=Robin+Sheriff+Pesant+Traitor", ["'Pesant'", "layout", "Peasant"]),
    # empty name in a list
    ("Robin++Traitor", ["'Robin++Traitor'"]),
    # a layout that does not match the deck
    ("rspx:layout=Robin+Sheriff+Peasant+Peasant", ["'Robin+Sheriff+Peasant+Peasant'", "rspx"]),
    ("Robin+Sheriff+Peasant+Traitor:layout=Robin+Sheriff+Monk+Peasant+Traitor",
     ["'Robin+Sheriff+Monk+Peasant+Traitor'"]),
    # players out of range
    ("rspx:players=5", ["players", "5"]),
    ("rspx:players=1", ["players", "1"]),
    ("rspx:players=three", ["players", "'three'"]),
    # team mode with three players
    ("team:players=3,teams=true", ["players=3", "players=4"]),
    # the Innkeeper without team mode
    ("team", ["Innkeeper", "teams=true"]),
    ("team:players=4", ["Innkeeper", "teams=true"]),
    # strikes
    ("rspx:strikes=two", ["strikes", "'two'"]),
    ("rspx:strikes=0", ["strikes", "0"]),
    ("rspx:strikes=-1", ["strikes", "-1"]),
    # max_turns
    ("rspx:max_turns=1.5", ["max_turns", "'1.5'"]),
    ("rspx:max_turns=0", ["max_turns", "0"]),
    # first_player
    ("rspx:first_player=2", ["first_player", "2", "0 to 1"]),
    ("rspx:first_player=-1", ["first_player", "-1"]),
    ("rspx:first_player=a", ["first_player", "'a'"]),
    # other options
    ("rspx:colour=red", ["'colour'", "max_turns"]),
    ("rspx:max_turns", ["'max_turns'", "key=value"]),
    ("rspx:challenge_order=fastest", ["'fastest'", "clockwise", "random"]),
    ("rspx:traitor_strikes_on_reveal=maybe", ["traitor_strikes_on_reveal", "'maybe'"]),
    ("rspx:teams=perhaps", ["teams", "'perhaps'"]),
    # deck size
    ("Traitor+Traitor", ["Traitor"]),
    ("+".join(["Peasant"] * 16 + ["Traitor"]), ["16", "17"]),
]


@pytest.mark.parametrize("text,needles", BAD_VARIANTS, ids=[t for t, _ in BAD_VARIANTS])
def test_parse_rejects_bad_variant(text, needles):
    """variant.parse: a VariantError naming the bad value."""
    with pytest.raises(VariantError) as err:
        parse(text)
    for needle in needles:
        assert needle in str(err.value), (needle, str(err.value))


@pytest.mark.parametrize("text,needles", BAD_VARIANTS, ids=[t for t, _ in BAD_VARIANTS])
def test_load_game_rejects_bad_variant(text, needles):
    """game_def.load_game: the same VariantError as parse, before any game is built."""
    with pytest.raises(VariantError) as err:
        game_def.load_game(text)
    for needle in needles:
        assert needle in str(err.value), (needle, str(err.value))


def test_errors_are_value_errors():
    """Both error kinds are ValueErrors, so callers may catch either."""
    assert issubclass(VariantError, ValueError)
    assert issubclass(IllegalActionError, ValueError)


@pytest.mark.parametrize("params,needle", [({"deck": "standrd"}, "'standrd'"),
                                            ({"players": 5}, "5"),
                                            ({"layout": "Robin+Sheriff+Peasant+Peasant",
                                              "deck": "rspx"}, "Robin+Sheriff+Peasant+Peasant")])
def test_pyspiel_load_game_passes_the_variant_error_through(params, needle):
    """pyspiel.load_game('robin_wood', ...) raises the same VariantError."""
    import pyspiel

    with pytest.raises(VariantError) as err:
        pyspiel.load_game("robin_wood", params)
    assert needle in str(err.value)


# ----- action strings -----------------------------------------------------------------
# (actions already played, bad action, substrings: the bad action and some legal ones)
BAD_ACTIONS = [
    ((), "peek 3", ["peek 3", "peek 0", "peek 1", "peek 2"]),          # the face-up Traitor
    ((), "use 3", ["use 3", "peek 0"]),                                # Traitor not usable
    ((), "peek 9", ["peek 9", "peek 0"]),                              # no such position
    ((), "challenge", ["challenge", "peek 0"]),                        # nothing announced
    ((), "dance", ["dance", "peek 0"]),                                # not an action at all
    (("peek 0",), "reveal 1", ["reveal 1", "silent", "announce Robin"]),
    (("peek 0",), "announce Trickster", ["announce Trickster", "announce Sheriff"]),
    (("peek 0",), "announce Monk", ["announce Monk", "announce Peasant"]),   # not in deck
    (("peek 0", "announce Robin"), "reveal 1", ["reveal 1", "challenge", "pass"]),
    (("peek 0", "announce Robin", "pass"), "reveal 3", ["reveal 3", "reveal 1"]),
]


@pytest.mark.parametrize("before,action,needles", BAD_ACTIONS,
                         ids=[f"{'/'.join(b)}>{a}" for b, a, _ in BAD_ACTIONS])
def test_play_rejects_illegal_action(before, action, needles):
    """game_def.play: an IllegalActionError naming the action and listing the legal ones."""
    game = game_def.load_game(RSPX_LAYOUT)
    state = game_def.play(game, *before)
    with pytest.raises(IllegalActionError) as err:
        game_def.play(state, action)
    for needle in needles:
        assert needle in str(err.value), (needle, str(err.value))


def test_illegal_action_leaves_the_given_state_unchanged():
    """game_def.play works on a clone: a failed play does not touch the caller's state."""
    game = game_def.load_game(RSPX_LAYOUT)
    state = game_def.play(game, "peek 0")
    before = state.history()
    with pytest.raises(IllegalActionError):
        game_def.play(state, "announce Robin", "dance")
    assert state.history() == before
