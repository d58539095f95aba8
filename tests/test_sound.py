"""The sound default (docs/sound-play.md) and the belief it plays from.

- The belief (solver.knowledge) equals a plain-Python twin that reads information-state
  strings only (tests/naive_belief.py), to 1e-9, at every decision of random rounds at
  2, 3 and 4 seats and in teams, for every seat.
- The break-even is checked exactly: on a hand-sized deck where a challenge or a pass
  ends the round, the exact value of always challenging a Peasant claim minus that of
  always passing, with the claimant's announcements locked so that a claim is false
  with a known probability q, changes sign where q crosses the break-even.
- Scenario states driven through action strings: what it challenges and passes, what
  it announces, how it unmasks, where its powers go.
- Its probabilities are legal at every table size, and two histories a seat cannot
  tell apart get the same probabilities.
Each test names the planted bug it catches.
"""

from __future__ import annotations

import numpy as np
import pytest

import game_def
from game_def import kernels as k
from game_def.characters import Character
from naive_belief import belief as twin_belief
from random_rounds import random_decisions
from solver.exact import build_robinwood_tree
from solver.knowledge.beliefs import seat_belief
from solver.players.agents import AgentPolicy, bot
from solver.scripted.sound import break_even, claim_break_even, round_value

TEAM = "Robin+Sheriff+Peasant+Innkeeper+Traitor:players=4,teams=true,max_turns=6"
POWERS = "Robin+Companion+Sheriff+Deputy+Peasant+Witch+Monk+Traitor"
TRICKS = "Robin+Companion+Sheriff+Peasant+Trickster+Witch+Traitor"   # one copy each
# a Trickster's forced lie: a Companion claim, else a little of everything
COMPANION_LIES = [1.0 if c == "Companion" else 0.05 for c in game_def.characters.NAMES]


# ----- the belief ---------------------------------------------------------------------
@pytest.mark.parametrize("spec, rounds", [
    ("rspx:max_turns=8", 40), (f"{POWERS}:max_turns=8", 25),
    ("rspmx:players=3,max_turns=8", 25), (f"{POWERS}:players=4,max_turns=8", 12),
    (TEAM, 25), ("standard:max_turns=6", 2), (f"{TRICKS}:players=3,max_turns=8", 25),
    ("Robin+Sheriff+Peasant+Trickster+Innkeeper+Traitor:players=4,teams=true,max_turns=8",
     12)])
def test_the_belief_equals_the_twin_reading_information_strings(spec, rounds):
    """Every seat's belief, at every decision of random rounds, with two claim weights
    and with the Trickster's share of a claim. Planted bugs caught: the claim's weight
    left out of the belief; a team signal weighted for every seat; the dynamic
    programme's forward pass reading the multiset one card too small; the Trickster's
    share given to a claim made over the public count; a face-up card left out of that
    count."""
    game = game_def.load_game(spec)
    rng = np.random.default_rng(len(spec))
    compared = 0

    def visit(state):
        nonlocal compared
        for seat in range(game.num_players()):
            for weight, trickster in ((12.0, 0.0), (2.5, 0.0), (96.0, 0.3),
                                      (96.0, COMPANION_LIES)):
                mine = seat_belief(state, seat, weight, trickster=trickster)
                theirs = twin_belief(state, seat, weight, trickster)
                if theirs is None:   # no arrangement fits: the kernel says so too
                    continue
                np.testing.assert_allclose(mine, np.array(theirs), atol=1e-9,
                                           err_msg=state.information_state_string(seat))
                compared += 1

    for state in random_decisions(game, rounds, rng):
        visit(state)
    assert compared > 40


@pytest.mark.parametrize("spec, rounds", [
    ("standard:max_turns=8", 12), (TEAM, 12), (f"{POWERS}:players=3,max_turns=8", 12)])
def test_the_exchangeable_shortcut_changes_no_bit_of_the_belief(spec, rounds):
    """The kernel fills the plain positions (no constraint, no evidence) at once by a
    multinomial; the reference fills every position one by one. With the default,
    integer claim weight every sum is an exact integer, so the two agree bit for bit
    (which keeps every seeded run's numbers); with 2.5 to rounding. Planted bugs caught:
    a position with a claim counted as plain (its evidence lost); the plain positions'
    share of a character read one digit off (the next character's count)."""
    game = game_def.load_game(spec)
    rng = np.random.default_rng(7)
    compared = 0
    for state in random_decisions(game, rounds, rng):
        for seat in range(game.num_players()):
            fast = seat_belief(state, seat, 12.0)
            assert np.array_equal(fast, seat_belief(state, seat, 12.0, stepwise=True)), \
                state.information_state_string(seat)
            np.testing.assert_allclose(seat_belief(state, seat, 2.5),
                                       seat_belief(state, seat, 2.5, stepwise=True),
                                       rtol=0, atol=1e-12)
            compared += 1
    assert compared > 40


def test_a_claim_is_evidence_by_its_likelihood_ratio():
    """rspx: Robin, Sheriff, Peasant and the Traitor (face up). Seat 0 peeks position 0
    and claims the Sheriff: to seat 1 the Sheriff there is 12 / (12 + 1 + 1) likely (one
    card each of three, the claim weighted 12); to seat 0, who saw Robin, certain Robin.
    Catches a belief that ignores the claim, or reads the claimant's card."""
    g = game_def.load_game("rspx")
    s = game_def.play(g, "peek 0", "deal Robin", "announce Sheriff")
    assert seat_belief(s, 1)[0, game_def.characters.NAMES.index("Sheriff")] == \
        pytest.approx(12 / 14)
    assert seat_belief(s, 0)[0, 0] == 1.0


# ----- the break-even -------------------------------------------------------------------
def test_the_break_even_of_equal_stakes_is_one_half_and_moves_with_the_strikes():
    """Two seats, two strikes: at equal strikes a Peasant claim (no power) is worth
    challenging above one chance in two of being false; a claimant one strike from out
    is worth challenging from one in three, a responder one strike from out only above
    two in three; a power that costs the responder lowers it. Three seats: a strike of
    one's own costs more than another's gains, so above two in three. Catches a formula
    that weighs the claimant's strike twice, or leaves out the power."""
    v = game_def.parse("standard")
    assert break_even(v, (0, 0), 1, 0) == pytest.approx(0.5)
    assert break_even(v, (1, 0), 1, 0) == pytest.approx(1 / 3)
    assert break_even(v, (0, 1), 1, 0) == pytest.approx(2 / 3)
    assert break_even(v, (0, 0), 1, 0, power_cost=0.2) < 0.5
    assert break_even(game_def.parse("standard:players=3"), (0, 0, 0), 1, 0) == \
        pytest.approx(2 / 3)
    assert round_value(v, (1, 0), 1) == pytest.approx(1 / 3)


def test_in_teams_a_seat_whose_partner_plays_on_still_weighs_the_power():
    """Teams, two strikes, seat 1 one strike from out, a Companion claim of seat 0
    (W = 0.2, the tempo). By the value model (lives [2, 1, 2, 2]): S_me = 4/21 (its
    team's share from 3/7 to 2/6 of the lives), S_them = 1/7. With its partner playing
    on, the power still matters to seat 1's team: q > S_me / (S_me + S_them + W) =
    0.357. With its partner out (lives [2, 1, 2, 0]) its strike ends its side's round:
    S_me = 0.4, S_them = 0.1, q > (S_me - W) / (S_me + S_them) = 0.4. Planted bug
    caught (the rule as it was): the seat's own lives deciding, which put the first
    break-even at 0, so that seat 1 challenged even claims it believed 96% true."""
    v = game_def.parse("team:players=4,teams=true")
    s_me, s_them, w = 4 / 21, 1 / 7, 0.2
    assert break_even(v, (0, 1, 0, 0), 1, 0, power_cost=w) == pytest.approx(
        s_me / (s_me + s_them + w), abs=1e-12)
    from game_def.core import rules_array
    from solver.scripted import kernels

    # a seat that is out is no strikes to the public API; the kernel takes lives
    lives = np.array([2.0, 1.0, 2.0, 0.0])
    assert kernels.break_even(rules_array(v), lives, 1, 0, w) == pytest.approx(
        (0.4 - w) / (0.4 + 0.1), abs=1e-12)


def test_a_claims_break_even_uses_its_power_as_the_default_values_it():
    """The report's break-even per claimed character (the start of a round): a Peasant's
    is the bare one half; a Companion's and a Deputy's are break_even with the default's
    tempo and power settings as the cost; the leaders' is left unstated. Catches a
    claim mapped to another's power, or a cost left out."""
    from solver.scripted.kernels import P_POWER_VALUE, P_TEMPO, SOUND_DEFAULTS

    v = game_def.parse("standard")
    tempo, power = SOUND_DEFAULTS[P_TEMPO], SOUND_DEFAULTS[P_POWER_VALUE]
    assert tempo != power
    assert claim_break_even(v, int(Character.PEASANT)) == pytest.approx(0.5)
    assert claim_break_even(v, int(Character.COMPANION)) == \
        pytest.approx(break_even(v, (0, 0), 1, 0, power_cost=tempo))
    assert claim_break_even(v, int(Character.DEPUTY)) == \
        pytest.approx(break_even(v, (0, 0), 1, 0, power_cost=power))
    assert claim_break_even(v, int(Character.COMPANION)) < \
        claim_break_even(v, int(Character.DEPUTY)) < 0.5
    assert np.isnan(claim_break_even(v, int(Character.ROBIN)))
    # two strikes a seat: a responder with both lives against a claimant with one gains
    # the round (1 - 1/3) by a strike on it and risks 1/3, so 1/3; the other way 2/3
    assert claim_break_even(v, int(Character.PEASANT), strikes=(1, 0)) == \
        pytest.approx(1 / 3)
    assert claim_break_even(v, int(Character.PEASANT), strikes=(0, 1)) == \
        pytest.approx(2 / 3)


@pytest.mark.parametrize("bluffs", [(0.1, 0.4), (0.25, 0.5), (0.5, 0.4)])
def test_the_break_even_is_where_the_exact_values_of_challenging_and_passing_cross(bluffs):
    """rspx with one strike and one turn: after a challenge someone is out, after a pass
    the turn cap draws, so the stakes are exactly those of the value model. Seat 0's
    turn and announcements are locked: it peeks a card, announces a Peasant truthfully
    with probability t and, with Robin or the Sheriff, falsely with probability b; seat
    1's response to a Peasant claim is locked to challenge, or to pass. The exact value
    of challenging minus passing is P(claim) (2q - 1) with q = 2b / (2b + t): positive,
    zero and negative exactly as q is above, at or below the break-even of 1/2.
    Catches a break-even that differs from the exact indifference point."""
    from solver.exact.best_response import player_values
    from solver.exact.tree import uniform_strategy
    from solver.locks import lock_decisions, parse_locks

    b, t = bluffs
    v = game_def.parse("rspx:strikes=1,max_turns=1")
    q = 2 * b / (2 * b + t)
    tree = build_robinwood_tree(v)
    values = {}
    for answer in ("challenge", "pass"):
        locked = lock_decisions(v, tree, parse_locks([
            f"announce seat=0 peeked=Peasant: truth={t} silent={1 - t}",
            f"announce seat=0 peeked=Robin: Peasant={b} silent={1 - b}",
            f"announce seat=0 peeked=Sheriff: Peasant={b} silent={1 - b}",
            f"respond seat=1 claim=Peasant: {answer}=1"]))
        free = locked.solve_tree()   # only seat 0's peek is left, and any peek is alike
        values[answer] = player_values(free, uniform_strategy(free))[1]
    claimed = (2 * b + t) / 3
    assert values["challenge"] - values["pass"] == pytest.approx(claimed * (2 * q - 1),
                                                                 abs=1e-12)
    side = np.sign(round(q - break_even(v, (0, 0), 1, 0), 12))
    assert np.sign(round(values["challenge"] - values["pass"], 12)) == side


# ----- scenarios through action strings ----------------------------------------------------
def _probs(game, state, name="sound", **options):
    policy = AgentPolicy(game, bot(name, **options))
    probs = policy.action_probabilities(state)
    assert sum(probs.values()) == pytest.approx(1.0)
    return {state.action_to_string(state.current_player(), a): p for a, p in probs.items()
            if p > 0}


def test_it_passes_a_likely_claim_and_challenges_an_impossible_one():
    """Standard deck, seat 0 claims a Peasant at its first peek: two copies, so to seat
    1 it is likely true and a challenge would lose a strike on average: pass. Seat 1
    then peeks that card itself and sees the Witch; seat 0 claims the Peasant there
    again: impossible, so challenge. Catches the baiter's rule (challenge all but known
    truths) and a rule that never challenges."""
    g = game_def.load_game("standard")
    s = game_def.play(g, "peek 0", "deal Witch", "announce Peasant")
    assert _probs(g, s) == {"pass": 1.0}
    s = game_def.play(g, "peek 0", "deal Witch", "announce Peasant", "pass",
                      "peek 0", "silent", "peek 0", "announce Peasant")
    assert _probs(g, s) == {"challenge": 1.0}


def test_it_challenges_a_peasant_claim_only_when_it_knows_it_false():
    """A history from the sound default's self-play: seat 1 (no strikes) has seen a
    Peasant at 2, and seat 0 (one strike of two) claims a Peasant at 4. By belief the
    claim is false 0.38 of the time, above seat 1's break-even there (1/3: a strike on
    seat 0 ends the round). But a Peasant claim gains its claimant nothing when false,
    so only a forced lie makes one: pass. Planted bug caught: the threshold rule
    applied to it (seat 1 challenged; in the demo's self-play such challenges caught a
    false claim 8% of the time)."""
    g = game_def.load_game("standard")
    history = ("peek 8", "deal Trickster", "announce Companion", "pass", "peek 6",
               "deal Sheriff", "silent", "peek 3", "deal Companion", "announce Companion",
               "challenge", "peek 2", "deal Peasant", "announce Peasant", "pass", "peek 4",
               "deal Peasant", "announce Peasant")
    s = game_def.play(g, *history)
    strikes = [int(s.core_state[k.S_STRIKES + seat]) for seat in (0, 1)]
    assert s.current_player() == 1 and strikes == [1, 0]
    q = 1 - seat_belief(s, 1)[4, int(Character.PEASANT)]
    assert 1 / 3 < q < 1
    assert _probs(g, s) == {"pass": 1.0}


def test_it_tells_the_truth_and_hides_a_leader_it_cannot_unmask_with():
    """After a peek at the start of a round: a Companion, a Peasant and the Witch are
    announced as they are more often than anything else; Robin is kept quiet more often
    than anything else (its unmasking would almost surely miss) and never claimed; no
    card is passed off as a leader, not even the Trickster's forced lie. Catches
    announcing a leader with nothing located, bluffing a leader, and bluffs that
    outweigh the truth."""
    g = game_def.load_game("standard")
    for card in ("Companion", "Peasant", "Witch"):
        probs = _probs(g, game_def.play(g, "peek 0", f"deal {card}"))
        assert max(probs, key=probs.get) == f"announce {card}", probs
        assert not {"announce Robin", "announce Sheriff"} & set(probs)
    probs = _probs(g, game_def.play(g, "peek 0", "deal Robin"))
    assert max(probs, key=probs.get) == "silent"
    assert not {"announce Robin", "announce Sheriff"} & set(probs)
    lie = _probs(g, game_def.play(g, "peek 0", "deal Trickster"))
    assert not {"announce Robin", "announce Sheriff"} & set(lie)


def _equilibrium_bluffs(variant, peeked):
    """The sound default's bluff mix after a peek at the start of a round, computed by
    hand from the module's formula (docs/sound-play.md, "After a peek"): each claim X
    but the truth and the leaders, with a power worth something, gets r = b p / ((1 -
    b)(1 - p)), p = X's count over the face-down cards, b its break-even; each is then
    divided by 1 + the sum of the r, and the rest is the honest choice's."""
    face_down = sum(variant.counts) - 1          # the Traitor lies face up
    rates = {}
    for character in Character:
        count = variant.counts[int(character)]
        if (character.label in (peeked, "Robin", "Sheriff", "Peasant", "Trickster",
                                "Traitor") or count == 0):
            continue
        b = claim_break_even(variant, int(character))
        p = count / face_down
        rates[f"announce {character.label}"] = b * p / ((1 - b) * (1 - p))
    total = sum(rates.values())
    return {name: r / (1 + total) for name, r in rates.items()}, 1 / (1 + total)


@pytest.mark.parametrize("peeked, honest", [("Robin", "silent"),
                                            ("Deputy", "announce Deputy"),
                                            ("Companion", "announce Companion")])
def test_its_bluffs_are_the_equilibrium_rates(peeked, honest):
    """After a peek at the start of a round on the printed deck, every bluff has the
    rate at which the other seat's challenge of it just breaks even (the plain-Python
    formula above, from the break-evens of solver.scripted.sound and the deck's
    counts), to 1e-9, and the honest choice keeps the rest. Planted bug caught: the
    truth's own claim given a bluff rate too (the Deputy and Companion cases fail)."""
    g = game_def.load_game("standard")
    bluffs, rest = _equilibrium_bluffs(game_def.parse("standard"), peeked)
    probs = _probs(g, game_def.play(g, "peek 0", f"deal {peeked}"))
    assert set(probs) == set(bluffs) | {honest}
    for name, rate in bluffs.items():
        assert probs[name] == pytest.approx(rate, abs=1e-9), name
    assert probs[honest] == pytest.approx(rest, abs=1e-9)


def test_a_forced_lie_takes_the_bluffs_proportions():
    """A peeked Trickster must lie: it lies in the proportions of the equilibrium bluff
    rates, not always on the claim least likely to be challenged (which a reader of its
    strategy would then challenge). It fails on the rule before the bluff rates, which
    passed every Trickster off as a Companion."""
    g = game_def.load_game("standard")
    bluffs, _ = _equilibrium_bluffs(game_def.parse("standard"), "Trickster")
    total = sum(bluffs.values())
    probs = _probs(g, game_def.play(g, "peek 0", "deal Trickster"))
    assert set(probs) == set(bluffs)
    for name, rate in bluffs.items():
        assert probs[name] == pytest.approx(rate / total, abs=1e-9), name


def test_bluff_worth_keeps_the_bluffs_of_cards_whose_own_claim_is_worth_more():
    """`bluff_worth=0`: a card bluffs only when its own best announcement is worth
    nothing (docs/sound-play.md, "Its bluffs lose head to head"). A peeked Deputy's truth
    is worth its power, so it tells the truth alone; a peeked Robin it cannot unmask with
    is kept quiet (worth 0), so it keeps the default's bluffs exactly. Planted bugs
    caught: the option ignored (the Deputy case fails), the gate applied to every card
    (the Robin case fails)."""
    g = game_def.load_game("standard")
    deputy = game_def.play(g, "peek 0", "deal Deputy")
    assert len(_probs(g, deputy)) > 1                     # the default bluffs from it
    assert _probs(g, deputy, bluff_worth=0.0) == {"announce Deputy": 1.0}
    robin = game_def.play(g, "peek 0", "deal Robin")
    gated = _probs(g, robin, bluff_worth=0.0)
    free = _probs(g, robin)
    assert set(gated) == set(free)
    for name, p in free.items():
        assert gated[name] == pytest.approx(p, abs=1e-12), name


def test_bluff_exposure_drops_a_bluff_the_responder_can_see_through():
    """`bluff_exposure=0.1`: seat 0 saw the Witch at position 0 and seat 1 then looked at
    it too, so a Witch claim anywhere else is one seat 1 knows false. After peeking Robin,
    the default still bluffs the Witch at its equilibrium rate; with the option it bluffs
    everything else in the same proportions and not the Witch. Planted bugs caught: the
    option ignored or the exposure summed over the cards seat 1 has not looked at (the
    Witch stays), or summed over every card (the Companions go too)."""
    g = game_def.load_game("standard")
    state = game_def.play(g, "peek 0", "deal Witch", "silent", "peek 0", "silent",
                          "peek 1", "deal Robin")
    free = _probs(g, state)
    exposed = _probs(g, state, bluff_exposure=0.1)
    assert "announce Witch" in free
    assert set(exposed) == set(free) - {"announce Witch"}
    assert exposed["announce Companion"] / exposed["announce Deputy"] == pytest.approx(
        free["announce Companion"] / free["announce Deputy"], rel=1e-9)


def test_it_deters_bluffs_it_cannot_catch_by_belief():
    """Seat 1 has seen nothing; seat 0 claims a Companion at its first peek. By belief
    the claim is likely true (a challenge would lose on average), but a seat that made
    it from every card would be false more often than the break-even: seat 1 challenges
    at the rate G / (G + S) that makes a bluff worth nothing to the claimant, G the
    extra turn's value (the tempo setting), S a strike's (1/3 at no strikes). A
    Peasant claim runs no power, so nothing is gained by bluffing it: pass. Planted bug
    caught: G counted in the strike too (c = G / (2G + S))."""
    from solver.scripted.kernels import P_TEMPO, SOUND_DEFAULTS

    g = game_def.load_game("standard")
    tempo = SOUND_DEFAULTS[P_TEMPO]
    probs = _probs(g, game_def.play(g, "peek 0", "deal Witch", "announce Companion"))
    assert probs["challenge"] == pytest.approx(tempo / (tempo + 1 / 3), abs=1e-12)
    assert _probs(g, game_def.play(g, "peek 0", "deal Witch", "announce Peasant")) == {
        "pass": 1.0}


def test_it_unmasks_the_cards_it_has_located_first():
    """rspmx layout Robin, Sheriff, Peasant, Monk, Traitor: seat 0 has seen the Sheriff at
    1, then peeks Robin at 0 and claims it; seat 1 passes: the unmasking reveals 1.
    Catches an unmasking that picks by position order or uniformly."""
    g = game_def.load_game("rspmx:layout=Robin+Monk+Sheriff+Peasant+Traitor")
    s = game_def.play(g, "peek 2", "silent", "peek 1", "silent", "peek 0",
                      "announce Robin", "pass")
    assert _probs(g, s) == {"reveal 2": 1.0}


def test_its_deputy_shuffles_the_cards_others_have_looked_at():
    """Seat 1 peeked positions 3 and 5; seat 0's Deputy picks one of them first (it
    cannot place either). Catches a Deputy that ignores the look marks."""
    g = game_def.load_game("standard")
    s = game_def.play(g, "peek 0", "deal Deputy", "silent", "peek 3", "deal Peasant",
                      "silent", "peek 4", "deal Monk", "silent", "peek 5", "deal Witch",
                      "silent", "peek 0", "announce Deputy", "pass")
    assert set(_probs(g, s)) == {"pick 3", "pick 5"}


def test_it_never_challenges_its_partner():
    """Teams: seat 2 does not challenge seat 0's claim, however unlikely; seat 1 may.
    Catches a team rule that treats the partner as an opponent."""
    g = game_def.load_game(TEAM)
    s = game_def.play(g, "peek 0", "deal Sheriff", "announce Innkeeper")
    asked = s.current_player()
    assert asked == 1
    s2 = game_def.play(g, "peek 0", "deal Sheriff", "announce Innkeeper", "pass")
    if s2.current_player() == 2:
        assert _probs(g, s2) == {"pass": 1.0}


def test_beyond_two_seats_a_claim_weighs_by_its_own_likelihood_ratio():
    """The printed team deck: seat 0 peeks a Sheriff and claims the Monk (one copy).
    Seat 1 believes it by the claim weight beyond two seats, claim_weight_many: at the
    default (96) a claim is near proof and it passes; at 12, the two-seat weight, it
    believes the claim false about 45% of the time, above the break-even of 37%, and
    challenges. At two seats claim_weight_many changes nothing (claim_weight rules
    there). Planted bugs caught: claim_weight used at every table size (the default
    challenges in teams); claim_weight_many used at two seats (the two-seat answers
    differ with it)."""
    g = game_def.load_game("team:players=4,teams=true")
    s = game_def.play(g, "peek 0", "deal Sheriff", "announce Monk")
    assert s.current_player() == 1
    assert _probs(g, s) == {"pass": 1.0}
    assert _probs(g, s, claim_weight_many=12.0) == {"challenge": 1.0}
    g = game_def.load_game("standard")
    for said in ("Monk", "Deputy"):
        s = game_def.play(g, "peek 0", "deal Sheriff", f"announce {said}")
        assert _probs(g, s, claim_weight_many=1.0) == _probs(g, s) == \
            _probs(g, s, claim_weight_many=1e4)


def test_beyond_two_seats_a_third_companion_claim_is_believed_and_the_earlier_ones_doubted():
    """The printed team deck (two Companions): seat 0 peeks the Trickster and must lie,
    and claims a Companion; seats 1 and 2 then peek the two Companions and claim them.
    The third claim was made over the public count (both copies already claimed), which
    a forced liar would not pick, so the Trickster's share of the earlier claims puts
    the lie there: seat 3 believes the third claim and passes. With no Trickster share
    (trickster=0) the three claims look alike, each false a third of the time, above
    the break-even (0.294), and it challenges a true claim. A Monk claim is no forced
    lie's favourite: the share does not move its answer, nor anything at two seats.
    Planted bugs caught: the Trickster's share given to a claim made over the count
    (seat 3 challenges); the share given to every claim (the Monk claim's answer moves
    with it)."""
    g = game_def.load_game("team:players=4,teams=true")
    s = game_def.play(g, "peek 0", "deal Trickster", "announce Companion", "pass", "pass",
                      "pass", "peek 3", "deal Peasant", "silent",
                      "peek 1", "deal Companion", "announce Companion", "pass", "pass", "pass",
                      "peek 4", "deal Monk", "silent",
                      "peek 2", "deal Companion", "announce Companion")
    assert s.current_player() == 3
    assert _probs(g, s) == {"pass": 1.0}
    assert _probs(g, s, trickster=0.0) == {"challenge": 1.0}
    false = [1 - seat_belief(s, 3, 96.0, trickster=0.5)[p, int(Character.COMPANION)]
             for p in (0, 1, 2)]
    assert false[2] < 0.294 < false[0] == pytest.approx(false[1])
    s = game_def.play(g, "peek 0", "deal Sheriff", "announce Monk")
    assert _probs(g, s, trickster=0.0) == _probs(g, s) == _probs(g, s, trickster=1.0)
    g = game_def.load_game("standard")
    s = game_def.play(g, "peek 0", "deal Trickster", "announce Companion")
    assert _probs(g, s, trickster=0.0) == _probs(g, s) == _probs(g, s, trickster=1.0)


# ----- legality and information -----------------------------------------------------------
@pytest.mark.parametrize("spec", ["rspx:max_turns=20", "standard:max_turns=30",
                                  "standard:players=3,max_turns=30",
                                  "standard:players=4,max_turns=30",
                                  "team:players=4,teams=true,max_turns=30"])
def test_its_probabilities_are_legal_at_every_table_size(spec):
    """Finite, non-negative, summing to one over the legal actions, in every phase met.
    Catches weights left on an illegal action."""
    game = game_def.load_game(spec)
    policy = AgentPolicy(game, bot("sound"))
    rng = np.random.default_rng(3)
    seen = set()

    def visit(state):
        probs = policy.action_probabilities(state)
        assert set(probs) <= set(state.legal_actions())
        assert sum(probs.values()) == pytest.approx(1.0)
        assert all(np.isfinite(p) and p >= 0 for p in probs.values())
        seen.add(str(state).split("phase ")[1].split()[0] if "phase " in str(state) else "")

    for state in random_decisions(game, 12, rng):
        visit(state)


def test_it_plays_one_strategy_per_information_state_on_an_exact_tree():
    """Every information state of a two-turn round with the Deputy and the Witch gets
    one distribution in all of its histories. Catches a rule that reads a hidden card
    from the core state (the tree's projection raises on a second distribution)."""
    from solver.evaluation.abstraction_cost import project

    variant = game_def.parse("Robin+Sheriff+Deputy+Witch+Traitor:max_turns=2")
    project(bot("sound"), variant, build_robinwood_tree(variant, symmetric=False))


@pytest.mark.parametrize("options, message", [
    ({"bluff_worth": -1.0}, "sound option bluff_worth=-1.0 must be from 0 to 1e+06"),
    ({"bluff_exposure": 1.5}, "sound option bluff_exposure=1.5 must be from 0 to 1"),
    ({"deter": float("nan")}, "sound option deter=nan must be from 0 to 1"),
    ({"claim_weight": 0.5}, "sound option claim_weight=0.5 must be from 1 to 1e+06"),
    ({"claim_weight_many": 0.0},
     "sound option claim_weight_many=0.0 must be from 1 to 1e+06"),
    ({"bluffs": 0.0}, "unknown sound option 'bluffs'")])
def test_a_bad_setting_is_one_line_naming_it_and_its_range(options, message):
    """Each setting is checked against its own range, and an unknown one is named.
    Planted bug caught: the new gates checked against the shares' 0-1 range (a
    bluff_worth above 1, which gates nothing, refused) or not at all."""
    from solver.players.agents import AgentError, load_agent

    with pytest.raises(AgentError, match=message.replace("+", r"\+").replace("(", r"\(")):
        bot("sound", **options)
    assert bot("sound", bluff_worth=1e6, bluff_exposure=1.0) is not None
    assert load_agent("sound:bluff_worth=0,bluff_exposure=0.1") is not None
