"""The prover, the disruptor and the unmasker: three held-out players written from the
rulebook (docs/bots.md, "Held out"; solver.scripted._league). Each documented rule is
checked in a scenario state driven through action strings on a fixed layout; each test's
docstring names the planted bug it was seen to catch. Then legality at two, three and
four seats and in teams, one distribution per information state (histories the seat
cannot tell apart), and training's refusal to meet them."""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import pytest
from click.testing import CliRunner

import game_def
from game_def import _core as k
from game_def.core import rules_array
from robinwood.cli import cli
from solver.evaluation.abstraction_cost import project
from solver.evaluation.league import HELD_OUT
from solver.exact.robinwood_tree import build_robinwood_tree
from solver.mccfr import _abstraction as ab
from solver.mccfr.trainer import MCCFRConfig, MCCFRError
from solver.players import _kernels as ka
from solver.players.agents import (BOT_NAMES, FALLBACK_PLAYERS, AgentError, AgentPolicy,
                                   Fallback, bot)
from solver.scripted import HELD_OUT_KINDS, HELD_OUT_NAMES
from solver.scripted import kernels as lg

NEW = ("prover", "disruptor", "unmasker")
# 0 Robin, 1 Sheriff, 2 Peasant, 3 Deputy, 4 Companion, 5 Trickster, 6 Traitor (face up)
CAMPS = "Robin+Sheriff+Peasant+Deputy+Companion+Trickster+Traitor"
# 0 Deputy, 1 Witch, 2 Monk, 3 Robin, 4 Sheriff, 5 Peasant, 6 Companion, 7 Traitor (up)
POWERS = "Deputy+Witch+Monk+Robin+Sheriff+Peasant+Companion+Traitor"
# two Companions: 2 and 3
TWO_COMPANIONS = "Robin+Sheriff+Companion+Companion+Peasant+Deputy+Trickster+Traitor"


def _load(layout: str, players: int = 2):
    return game_def.load_game(f"{layout}:layout={layout},players={players}")


def _named(game, state, name):
    probs = AgentPolicy(game, bot(name)).action_probabilities(state)
    assert sum(probs.values()) == pytest.approx(1.0)
    assert set(probs) == set(state.legal_actions())
    return {state.action_to_string(state.current_player(), a): pytest.approx(p)
            for a, p in probs.items() if p > 0}


def _even(*actions):
    return {a: pytest.approx(1 / len(actions)) for a in actions}


# ----- what they are -------------------------------------------------------------------
def test_they_are_held_out_kinds_outside_the_league_the_fallback_and_training():
    """Catches a new player left out of HELD_OUT_KINDS (then it is not in HELD_OUT) or
    given a kind already taken (the claim counter's 22, or a league kind)."""
    assert {HELD_OUT_KINDS[n] for n in NEW} == {lg.PROVER, lg.DISRUPTOR, lg.UNMASKER}
    assert set(NEW) <= set(HELD_OUT) and set(NEW) <= set(HELD_OUT_NAMES)
    assert not set(NEW) & set(BOT_NAMES) and not set(NEW) & set(FALLBACK_PLAYERS)
    assert lg.CLAIM_COUNTER not in HELD_OUT_KINDS.values()
    assert len(set(HELD_OUT_KINDS.values())) == len(HELD_OUT_KINDS)
    for name in NEW:
        assert bot(name).name == name and bot(name).kind == HELD_OUT_KINDS[name]
        with pytest.raises(AgentError):
            Fallback(name)


# ----- the prover ---------------------------------------------------------------------
def test_prover_announces_what_it_saw_and_hides_an_unsure_leader():
    """Catches: silent on the Peasant (the honest bot's truth, not the prover's), and a
    leader announced when its unmasking is not sure to win."""
    g = _load(CAMPS)
    name = "prover"
    assert _named(g, game_def.play(g, "peek 2"), name) == {"announce Peasant": 1}
    assert _named(g, game_def.play(g, "peek 3"), name) == {"announce Deputy": 1}
    assert _named(g, game_def.play(g, "peek 4"), name) == {"announce Companion": 1}
    assert _named(g, game_def.play(g, "peek 0"), name) == {"silent": 1}
    assert _named(g, game_def.play(g, "peek 1"), name) == {"silent": 1}
    # seat 0 has located the Sheriff (1) and the Deputy (3): Robin's unmasking surely wins
    located = game_def.play(g, "peek 1", "silent", "peek 2", "silent", "peek 3", "silent",
                            "peek 2", "silent")
    assert _named(g, game_def.play(located, "peek 0"), name) == {"announce Robin": 1}
    assert _named(g, game_def.play(located, "peek 1"), name) == {"silent": 1}


def test_prover_lies_on_the_trickster_as_the_counter():
    """The forced lie: a sure-winning leader, else the Peasant. Catches the honest bot's
    lie (Robin or the Sheriff evenly) in place of the counting lie."""
    g = _load(CAMPS)
    for name in NEW:
        assert _named(g, game_def.play(g, "peek 5"), name) == {"announce Peasant": 1}
    located = game_def.play(g, "peek 1", "silent", "peek 2", "silent", "peek 3", "silent",
                            "peek 2", "silent")
    for name in NEW:
        assert _named(g, game_def.play(located, "peek 5"), name) == {"announce Robin": 1}


def test_prover_challenges_only_what_it_can_prove_false():
    """Catches the planted bug of challenging when P(claim true) < 1 instead of == 0 (it
    would challenge the plain Peasant claim), of challenging only claims ruled out at
    the position (it would pass the Robin claim whose copy is located elsewhere), and
    of the claim counter's over-count rule (it would challenge the third Companion)."""
    g = _load(CAMPS)
    for name in NEW:
        # nothing known: a claim that may be true is passed, however unlikely
        assert _named(g, game_def.play(g, "peek 2", "announce Peasant"), name) == {"pass": 1}
        assert _named(g, game_def.play(g, "peek 2", "announce Robin"), name) == {"pass": 1}
        # ruled out at the position: seat 1 saw the Companion at 4
        seen = game_def.play(g, "peek 0", "silent", "peek 4", "silent", "peek 4")
        assert _named(g, game_def.play(seen, "announce Peasant"), name) == {"challenge": 1}
        assert _named(g, game_def.play(seen, "announce Companion"), name) == {"pass": 1}
        # every copy located elsewhere: seat 1 saw Robin at 0
        knows = game_def.play(g, "peek 1", "silent", "peek 0", "silent", "peek 2")
        assert _named(g, game_def.play(knows, "announce Robin"), name) == {"challenge": 1}
        assert _named(g, game_def.play(knows, "announce Companion"), name) == {"pass": 1}
    # three seats: a third Companion claim over-counts what was said, but the prover
    # cannot prove this one false (the claim counter challenges it)
    g3 = _load(TWO_COMPANIONS, players=3)
    third = game_def.play(g3, "peek 2", "announce Companion", "pass", "pass", "peek 0",
                          "silent", "peek 3", "announce Companion", "pass", "pass", "peek 0",
                          "silent", "peek 4", "announce Companion")
    assert third.current_player() == 0
    assert _named(g3, third, "claim_counter") == {"challenge": 1}
    for name in NEW:
        assert _named(g3, third, name) == {"pass": 1}


def test_prover_takes_a_sure_win_at_its_turn_else_peeks_what_it_cannot_place():
    """Catches a turn without the sure-win rule (it would peek the cards it cannot
    place, 2, 4 and 5, instead of the located Robin) and a peek at known cards."""
    g = _load(CAMPS)
    for name in NEW:
        assert _named(g, game_def.play(g), name) == _even(*(f"peek {p}" for p in range(6)))
    # seat 0 has located Robin (0), the Sheriff (1) and the Deputy (3)
    sure = game_def.play(g, "peek 0", "silent", "peek 2", "silent", "peek 1", "silent",
                         "peek 2", "silent", "peek 3", "silent", "peek 2", "silent")
    for name in NEW:
        assert _named(g, sure, name) == {"peek 0": 1}
        assert _named(g, game_def.play(sure, "peek 0"), name) == {"announce Robin": 1}
    # without Robin located, it peeks the cards it cannot place
    seen = game_def.play(g, "peek 1", "silent", "peek 2", "silent")
    for name in ("prover", "disruptor"):
        assert _named(g, seen, name) == _even("peek 0", "peek 2", "peek 3", "peek 4",
                                              "peek 5")


def test_prover_powers_are_the_league_baseline():
    """The Deputy picks uniformly, the Witch looks at a card it cannot place and keeps.
    Catches the disruptor's picks leaking into the prover."""
    g = _load(POWERS)
    deputy = game_def.play(g, "peek 5", "silent", "peek 4", "silent", "peek 0",
                           "announce Deputy", "pass")
    assert _named(g, deputy, "prover") == _even(*(f"pick {p}" for p in range(8)))
    witch = game_def.play(g, "peek 5", "silent", "peek 4", "silent", "peek 1",
                          "announce Witch", "pass")
    assert _named(g, witch, "prover") == _even("pick 0", "pick 2", "pick 3", "pick 4",
                                               "pick 6")
    assert _named(g, game_def.play(witch, "pick 4"), "prover") == {"keep": 1}


# ----- the disruptor ------------------------------------------------------------------
def _deputy_after_looks():
    """Seat 1 has looked at 4 (the Sheriff) and 5 (the Peasant); seat 0 has seen 5, 6
    and 0 (its Deputy, announced and passed): seat 0 picks for the Deputy."""
    g = _load(POWERS)
    return g, game_def.play(g, "peek 5", "silent", "peek 4", "silent", "peek 6", "silent",
                            "peek 5", "silent", "peek 0", "announce Deputy", "pass")


def test_disruptor_shuffles_the_positions_the_opponent_looked_at():
    """Catches: uniform Deputy picks (the baseline), reading its own look marks in place
    of the other seats' (it would pick 5, 6 or 0, which it looked at itself), and no
    preference for the card it cannot place (it would pick 5 first as well as 4)."""
    g, deputy = _deputy_after_looks()
    name = "disruptor"
    assert _named(g, deputy, name) == {"pick 4": 1}          # looked at, and unknown to it
    assert _named(g, game_def.play(deputy, "pick 4"), name) == {"pick 5": 1}   # looked at
    assert _named(g, game_def.play(deputy, "pick 5"), name) == {"pick 4": 1}


def test_disruptor_fills_with_cards_it_cannot_place_when_few_were_looked_at():
    """One position looked at by the opponent (4): the second pick is a face-down card
    it cannot place; none looked at: both are. Catches a fill that picks any position
    (its own known cards 0 and 5 and the face-up Traitor 7 included)."""
    g = _load(POWERS)
    name = "disruptor"
    one = game_def.play(g, "peek 5", "silent", "peek 4", "silent", "peek 0",
                        "announce Deputy", "pass")
    assert _named(g, one, name) == {"pick 4": 1}
    assert _named(g, game_def.play(one, "pick 4"), name) == _even("pick 1", "pick 2",
                                                                  "pick 3", "pick 6")
    none = game_def.play(g, "peek 0", "announce Deputy", "pass")
    assert _named(g, none, name) == _even(*(f"pick {p}" for p in range(1, 7)))


def test_disruptor_witch_takes_a_card_the_opponent_saw_and_swaps_it_away():
    """Catches: the baseline Witch (looks at any card it cannot place, keeps), a swap
    whatever it picked (it must keep a card nobody else has seen), and no preference
    for the card it cannot place over its own known Peasant (5)."""
    g = _load(POWERS)
    name = "disruptor"
    # seat 1 has looked at 4 and 5; seat 0 has seen 5 and 6
    witch = game_def.play(g, "peek 5", "silent", "peek 4", "silent", "peek 6", "silent",
                          "peek 5", "silent", "peek 1", "announce Witch", "pass")
    assert _named(g, witch, name) == {"pick 4": 1}
    assert _named(g, game_def.play(witch, "pick 4"), name) == {"swap": 1}
    assert _named(g, game_def.play(witch, "pick 5"), name) == {"swap": 1}
    assert _named(g, game_def.play(witch, "pick 6"), name) == {"keep": 1}   # its own look
    assert _named(g, game_def.play(witch, "pick 3"), name) == {"keep": 1}
    # nobody has looked: a face-down card it cannot place, then keep
    alone = game_def.play(g, "peek 1", "announce Witch", "pass")
    assert _named(g, alone, name) == _even("pick 0", "pick 2", "pick 3", "pick 4",
                                           "pick 5", "pick 6")
    assert _named(g, game_def.play(alone, "pick 3"), name) == {"keep": 1}


def test_disruptor_monk_turns_a_face_up_camp_card_face_down():
    """Seat 1's Robin is challenged face up (true: a strike to seat 0), its unmasking
    misses on the Peasant (a strike to seat 1); seat 0's Monk flips Robin face down, not
    the face-up Peasant or Traitor. Catches the baseline Monk (a card it cannot place)
    and a Monk that flips any face-up card."""
    g = _load(POWERS)
    name = "disruptor"
    monk = game_def.play(g, "peek 2", "silent", "peek 3", "announce Robin", "challenge",
                         "reveal 5", "peek 2", "announce Monk", "pass")
    assert "3:Robin" in str(monk) and "5:Peasant" in str(monk)
    assert _named(g, monk, name) == {"pick 3": 1}
    assert _named(g, monk, "prover") == _even("pick 0", "pick 1", "pick 4", "pick 6")
    # no face-up camp card: as the baseline Monk
    plain = game_def.play(g, "peek 2", "announce Monk", "pass")
    assert _named(g, plain, name) == _even("pick 0", "pick 1", "pick 3", "pick 4",
                                           "pick 5", "pick 6")


def test_disruptor_claims_as_the_prover():
    """The Deputy and the Witch announced truthfully (no bluff); every peek as the
    prover. Catches a disruptor that bluffs a power card to get its picks."""
    for layout in (CAMPS, POWERS):
        g = _load(layout)
        for pos in range(len(layout.split("+")) - 1):
            state = game_def.play(g, f"peek {pos}")
            assert _named(g, state, "disruptor") == _named(g, state, "prover")
    g = _load(POWERS)
    assert _named(g, game_def.play(g, "peek 0"), "disruptor") == {"announce Deputy": 1}
    assert _named(g, game_def.play(g, "peek 1"), "disruptor") == {"announce Witch": 1}


# ----- the unmasker -------------------------------------------------------------------
def test_unmasker_peeks_the_card_with_the_most_candidates():
    """Seat 0 saw 4 (the Sheriff) and 5 (the Peasant); seat 1's Deputy shuffles them
    blind: both are then one of two characters to seat 0, while 0, 1, 2, 3 and 6 could
    be anything. Catches the league's peek (any card it cannot place: 4 and 5 too) and
    a peek at the fewest candidates."""
    g = _load(POWERS)
    state = game_def.play(g, "peek 4", "silent", "peek 6", "silent", "peek 5", "silent",
                          "peek 0", "announce Deputy", "pass", "pick 4", "pick 5",
                          "shuffle keep")
    assert state.current_player() == 0
    assert _named(g, state, "unmasker") == _even("peek 0", "peek 1", "peek 2", "peek 3",
                                                 "peek 6")
    assert _named(g, state, "prover") == _even(*(f"peek {p}" for p in range(7)))


def test_unmasker_skips_cards_that_may_be_the_traitor():
    """As above, then seat 1's Deputy shuffles the face-up Traitor (7) with 6: every
    card seat 0 has not seen may now be the Traitor, the two it saw exchanged (4 and 5)
    may not. It peeks those, fewer candidates or not. Catches an unmasker that ranks by
    candidates without skipping possible Traitors."""
    g = _load(POWERS)
    state = game_def.play(g, "peek 4", "silent", "peek 6", "silent", "peek 5", "silent",
                          "peek 0", "announce Deputy", "pass", "pick 4", "pick 5",
                          "shuffle keep", "peek 3", "silent", "peek 0", "announce Deputy",
                          "pass", "pick 7", "pick 6", "shuffle swap")
    assert state.current_player() == 0
    assert _named(g, state, "unmasker") == _even("peek 4", "peek 5")


def test_unmasker_saves_its_claims():
    """Silent on the Peasant and on an unsure leader, the truth on other cards. Catches
    an unmasker that announces the Peasant (the prover's rule) or every leader."""
    g = _load(CAMPS)
    name = "unmasker"
    assert _named(g, game_def.play(g, "peek 2"), name) == {"silent": 1}
    assert _named(g, game_def.play(g, "peek 0"), name) == {"silent": 1}
    assert _named(g, game_def.play(g, "peek 3"), name) == {"announce Deputy": 1}
    assert _named(g, game_def.play(g, "peek 4"), name) == {"announce Companion": 1}
    located = game_def.play(g, "peek 1", "silent", "peek 2", "silent", "peek 3", "silent",
                            "peek 2", "silent")
    assert _named(g, game_def.play(located, "peek 0"), name) == {"announce Robin": 1}


def test_unmasker_reveals_located_target_cards_first():
    """Catches a reveal that ignores what it has located (it would reveal 2 or 4 as
    well as the located Deputy at 3)."""
    g = _load(CAMPS)
    state = game_def.play(g, "peek 3", "silent", "peek 2", "silent", "peek 0",
                          "announce Robin", "pass")
    assert _named(g, state, "unmasker") == {"reveal 3": 1}


# ----- legality at every table size ------------------------------------------------------
def _rounds(variant, players, opponents, rounds, seed, check, game=None):
    """`rounds` rounds of `variant`, each of `players` in turn at one seat (rotating) and
    `opponents` at the others, chance and moves sampled; at every decision of a player
    in `players` check(name, state, seat, legal, probs, twin) is called, `twin` the
    same round as an OpenSpiel state of `game` (None without a game)."""
    rules = rules_array(variant)
    n_seats = int(rules[k.R_PLAYERS])
    rng = np.random.default_rng(seed)
    legal = np.empty(k.MAX_LEGAL, dtype=np.int64)
    chance_p = np.empty(k.MAX_CHANCE_OUTCOMES)
    out = np.empty(k.MAX_LEGAL)
    scratch = np.empty((ab.SCRATCH_ROWS, k.MAX_LEGAL), dtype=np.int64)
    abst = np.empty(k.MAX_LEGAL, dtype=np.int64)
    for r in range(rounds):
        name = players[r % len(players)]
        agents = [bot(opponents[(r + s) % len(opponents)]) for s in range(n_seats)]
        agents[r % n_seats] = bot(name)
        state = k._initial_state(rules)
        know = ab._initial_knowledge(state, rules)
        twin = game.new_initial_state() if game is not None else None
        while state[k.S_PHASE] != k.PH_TERMINAL:
            seat = k._current_player(state)
            if seat == k.CHANCE_PLAYER:
                m = k._chance_outcomes(state, rules, legal, chance_p)
                p = chance_p[:m]
            else:
                m = k._legal_actions(state, rules, legal)
                out[:] = np.nan
                ka._agent_probs(agents[seat].player(seat), state, rules, know, seat, legal,
                                m, scratch, abst, out)
                p = out[:m].copy()
                assert np.isnan(out[m:]).all(), (name, state)
                if agents[seat].name == name:
                    check(name, state, seat, legal[:m].copy(), p, twin)
            a = legal[min(np.searchsorted(np.cumsum(p), rng.random() * p.sum(),
                                          side="right"), m - 1)]
            if twin is not None:
                twin.apply_action(int(a))
            before = state.copy()
            k._apply_action(state, rules, a)
            ab._observe(know, before, a, state, rules)


@pytest.mark.parametrize("text", ["rspx:max_turns=20", "standard:max_turns=30",
                                  "standard:players=3,max_turns=30",
                                  "standard:players=4,max_turns=30",
                                  "team:players=4,teams=true,max_turns=30"])
def test_they_play_legal_normalised_probabilities_at_every_table_size(text):
    """Probabilities finite, >= 0, summing to 1 over the legal actions only, in every
    phase they meet, against the baseline bots, the league and each other."""
    phases = defaultdict(set)

    def check(name, state, seat, legal, p, twin):
        assert np.isfinite(p).all() and (p >= 0).all(), (name, p)
        assert abs(p.sum() - 1) < 1e-12, (name, p)
        phases[name].add(int(state[k.S_PHASE]))

    variant = game_def.parse(text)
    _rounds(variant, NEW, ("honest", "baiter", "heuristic", "tempo") + NEW, rounds=60,
            seed=len(text), check=check)
    for name in NEW:
        assert {k.PH_TURN, k.PH_AFTER_PEEK, k.PH_RESPOND} <= phases[name], (name, text)
    if not text.startswith("rspx"):
        assert k.PH_PICK in phases["disruptor"], text


# ----- their own information only -------------------------------------------------------
def test_they_use_only_their_own_information_on_an_exact_tree_with_the_deputy_and_witch():
    """On every information state of a two-turn round with the Deputy and the Witch
    (seat 1's picks follow seat 0's look), one distribution in all of its histories."""
    variant = game_def.parse("Robin+Sheriff+Deputy+Witch+Traitor:max_turns=2")
    tree = build_robinwood_tree(variant, symmetric=False)
    for name in NEW:
        project(bot(name), variant, tree)   # raises on an inconsistent information state


def _twin(game, history, seat, rng, tries=40):
    """A history that differs from `history` in one chance outcome (a card dealt, a
    shuffle's keep or swap) and leaves `seat` the same information-state string, or
    None if none was found in `tries` substitutions."""
    replay = game.new_initial_state()
    options = []
    for i, a in enumerate(history):
        if replay.is_chance_node():
            options += [(i, o) for o, _ in replay.chance_outcomes() if o != a]
        replay.apply_action(a)
    info = replay.information_state_string(seat)
    for j in rng.permutation(len(options))[:tries]:
        i, o = options[j]
        state = game.new_initial_state()
        for a in history[:i] + [o] + history[i + 1:]:
            legal = ([c for c, _ in state.chance_outcomes()] if state.is_chance_node()
                     else state.legal_actions())
            if state.is_terminal() or a not in legal:
                break
            state.apply_action(a)
        else:
            if (not state.is_terminal() and state.current_player() == seat
                    and state.information_state_string(seat) == info):
                return state
    return None


@pytest.mark.parametrize("players", [3, 4])
def test_histories_a_seat_cannot_tell_apart_get_the_same_probabilities(players):
    """Beyond two seats (no exact tree): at the players' decisions in random rounds, a
    twin history that differs in one chance outcome the seat did not see (another seat's
    peek, a blind shuffle) and gives it the same information-state string must get the
    same probabilities; over two hundred twins are checked, in every kind of decision.
    Catches a disruptor whose Witch prefers the card that is really Robin (a hidden
    card read from the state)."""
    text = f"Robin+Sheriff+Deputy+Witch+Monk+Peasant+Traitor:players={players},max_turns=8"
    game = game_def.load_game(text)
    policies = {name: AgentPolicy(game, bot(name)) for name in NEW + ("honest", "paranoid")}
    rng = np.random.default_rng(players)
    twins = 0
    phases = set()
    for r in range(90):
        name = NEW[r % 3]
        seats = [("honest", "paranoid")[(r + s) % 2] for s in range(players)]
        seats[r % players] = name
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(int(rng.choice(outcomes, p=probs)))
                continue
            seat = state.current_player()
            probs = policies[seats[seat]].action_probabilities(state)
            if seats[seat] == name:
                twin = _twin(game, state.history(), seat, rng)
                if twin is not None:
                    assert policies[name].action_probabilities(twin) == probs, (
                        name, state.information_state_string(seat))
                    twins += 1
                    phases.add(int(state.core_state[k.S_PHASE]))
            actions, p = zip(*probs.items())
            state.apply_action(int(rng.choice(actions, p=np.array(p) / sum(p))))
    assert twins > 200, twins
    assert {k.PH_TURN, k.PH_AFTER_PEEK, k.PH_RESPOND, k.PH_REVEAL, k.PH_PICK,
            k.PH_WITCH_CHOICE} <= phases, phases


# ----- training refuses them -------------------------------------------------------------
@pytest.mark.parametrize("name", NEW)
def test_training_refuses_them(name):
    """Catches a new player registered as a league (training) player rather than a
    held-out one."""
    with pytest.raises(MCCFRError, match=f"{name} is held out for evaluation: training may "
                                         f"not meet it"):
        MCCFRConfig(game_def.parse("rspx:max_turns=4"), league_opponents=("tempo", name),
                    league_share=0.2)
    with pytest.raises(MCCFRError, match="held out"):
        MCCFRConfig(game_def.parse("rspmx:players=3"), league_opponents=(name,),
                    league_share=0.5)


def test_cli_training_refuses_them_and_tournaments_accept_them(tmp_path):
    refused = CliRunner().invoke(cli, [
        "solve", "--deck", "rspx", "--max-turns", "3", "--algo", "mccfr",
        "--iterations", "200", "--league-opponents", "tempo,unmasker",
        "--league-share", "0.25", "--workers", "1", "--out", str(tmp_path / "no")])
    assert refused.exit_code == 2, refused.output
    assert "unmasker is held out for evaluation: training may not meet it" in refused.output
    played = CliRunner().invoke(cli, ["tournament", "prover", "disruptor", "--deck", "rspx",
                                      "--rounds", "200"])
    assert played.exit_code == 0, played.output
