"""The statistics tables: hand-computed frequencies on a fixed deal, event counts against
a brute-force walk of OpenSpiel states, distributions summing to 1, the match formula,
and sampled counts with their intervals."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import game_def
from analysis import ProfileStatistics, profile_statistics
from analysis._counts import ANNOUNCED, FACE_UP, MISTAKE, WIN, counts_for
from analysis import statistics
from analysis.statistics import best_of_three, turn_buckets
from game_def.characters import Character
from solver.exact.cfr import CFRSolver
from solver.exact.policy import StrategyPolicy
from solver.exact.robinwood_tree import build_robinwood_tree
from solver.exact.symmetry import PositionSymmetry

LAYOUT = "rspx:layout=Robin+Sheriff+Peasant+Traitor,max_turns=1"
CARDS = ("Robin", "Sheriff", "Peasant")  # positions 0, 1, 2; the Traitor is face up at 3
SAID = ("Robin", "Sheriff", "Peasant")


def solved(spec: str, iterations: int = 60, symmetric: bool = False):
    variant = game_def.parse(spec)
    tree = build_robinwood_tree(variant, symmetric=symmetric)
    solver = CFRSolver(tree, "dcfr")
    solver.step(iterations)
    strategy = solver.average_strategy()
    game = game_def.load_game(variant)
    policy = StrategyPolicy.from_tree(game, tree, strategy,
                                      PositionSymmetry(variant) if symmetric else None)
    return variant, game, policy, profile_statistics(variant, tree, strategy, symmetric)


@pytest.fixture(scope="module")
def one_turn():
    return solved(LAYOUT, iterations=200)


def prob(policy, state, text):
    """The strategy's probability of the action named `text` in `state`."""
    probs = policy.action_probabilities(state)
    for a, p in probs.items():
        if state.action_to_string(a) == text:
            return p
    raise AssertionError(f"{text} not legal in {state}")


def test_one_turn_frequencies_equal_the_hand_computed_ones(one_turn):
    """Fixed deal Robin, Sheriff, Peasant (+ face-up Traitor), one turn, the solved
    strategy: every frequency below is a product of the strategy's own probabilities
    along the only paths that lead to it."""
    variant, game, policy, stats = one_turn
    start = game.new_initial_state()
    mass = {}        # (peeked card, action) -> probability
    challenged = {}  # (peeked card, announced) -> P(challenge)
    for pos, card in enumerate(CARDS):
        peek = prob(policy, start, f"peek {pos}")
        after = game_def.play(game, f"peek {pos}")
        mass[card, "silent"] = peek * prob(policy, after, "silent")
        for said in SAID:
            mass[card, said] = peek * prob(policy, after, f"announce {said}")
            challenged[card, said] = prob(
                policy, game_def.play(game, f"peek {pos}", f"announce {said}"), "challenge")

    matrix = stats.announcement_matrix()
    for card in CARDS:
        total = sum(mass[card, a] for a in ("silent",) + SAID)
        assert matrix.loc[card, "reach"] == pytest.approx(total, abs=1e-12)
        for a in ("silent",) + SAID:
            assert matrix.loc[card, a] == pytest.approx(mass[card, a] / total, abs=1e-12)

    bluffs = stats.bluff_rates()
    challenges = stats.challenge_rates()
    for said in SAID:
        announced = sum(mass[card, said] for card in CARDS)
        lies = sum(mass[card, said] for card in CARDS if card != said)
        assert bluffs.loc[said, "announcements_per_round"] == pytest.approx(announced)
        assert bluffs.loc[said, "bluff_rate"] == pytest.approx(lies / announced)
        ch = sum(mass[card, said] * challenged[card, said] for card in CARDS)
        right = sum(mass[card, said] * challenged[card, said] for card in CARDS
                    if card != said)
        assert challenges.loc[said, "challenge_rate"] == pytest.approx(ch / announced)
        assert challenges.loc[said, "challenge_right_rate"] == pytest.approx(right / ch)
    # Only turn 1 exists, with nobody struck yet: the split tables hold the same rates.
    by_turn = stats.bluff_rates_by_turn()
    assert by_turn.index.get_level_values("turns").unique().tolist() == ["1"]
    by_strikes = stats.challenge_rates_by_strikes()
    assert set(by_strikes.index.get_level_values("challenger_strikes")) == {0}
    split = by_strikes.xs((0, 0), level=("challenger_strikes", "announcer_strikes"))
    np.testing.assert_allclose(split["challenge_rate"],
                               challenges.loc[split.index, "challenge_rate"])
    left_out = challenges.index.difference(split.index)  # reached too rarely to split
    assert (challenges.loc[left_out, "responses_per_round"] < 1e-4).all()

    # Robin's power runs after an unchallenged Robin claim, or a challenged true one (the
    # challenger's first strike does not eliminate). Then seat 0 reveals: the Sheriff
    # (position 1) wins, anything else is a mistake.
    runs = wins = 0.0
    for pos, card in enumerate(CARDS):
        passed = mass[card, "Robin"] * (1 - challenged[card, "Robin"])
        runs += passed
        if passed:
            state = game_def.play(game, f"peek {pos}", "announce Robin", "pass")
            wins += passed * prob(policy, state, "reveal 1")
        if card == "Robin":
            held = mass[card, "Robin"] * challenged[card, "Robin"]
            runs += held
            state = game_def.play(game, f"peek {pos}", "announce Robin", "challenge")
            wins += held * prob(policy, state, "reveal 1")
    power = stats.power_use()
    assert power.loc["Robin", "runs_after_announcement_per_round"] == pytest.approx(runs)
    assert power.loc["Robin", "face_up_uses_per_round"] == 0.0
    unmask = stats.unmasking()
    assert unmask.loc["Robin", "attempts_per_round"] == pytest.approx(runs)
    assert unmask.loc["Robin", "wins_per_round"] == pytest.approx(wins)
    assert unmask.loc["Robin", "success_rate"] == pytest.approx(wins / runs)


def brute_force_events(game, policy):
    """Reach-weighted counts of core events, turns taken by `use`, powers that ran and
    round ends, by recursion over pyspiel states (slow, obvious)."""
    totals: dict[str, float] = {}

    def add(name, w):
        totals[name] = totals.get(name, 0.0) + w

    def walk(state, reach):
        if state.is_terminal():
            add("turns", reach * state.turns_played)
            return
        if state.is_chance_node():
            children = [(a, p) for a, p in state.chance_outcomes()]
        else:
            probs = policy.action_probabilities(state)
            children = [(a, probs[a]) for a in state.legal_actions() if probs[a] > 0]
        for a, p in children:
            text = state.action_to_string(a) if not state.is_chance_node() else ""
            child = state.child(a)
            w = reach * p
            for event in child.events:
                add(event, w)
            if text.startswith("use "):
                add("use", w)
            if text == "swap":
                add("witch swap", w)
            walk(child, w)

    walk(game.new_initial_state(), 1.0)
    return totals


@pytest.mark.parametrize("spec", [
    "Robin+Sheriff+Trickster+Traitor:max_turns=3,traitor_strikes_on_reveal=true",
    "Robin+Sheriff+Monk+Traitor:max_turns=3,strikes=1",
    "Robin+Sheriff+Witch+Traitor:max_turns=2",
])
def test_event_counts_equal_a_brute_force_walk(spec):
    variant, game, policy, stats = solved(spec, iterations=30)
    totals = brute_force_events(game, policy)
    c = stats.counts
    assert c.traitor_hits.sum() == pytest.approx(totals.get("traitor_hit", 0), abs=1e-12)
    assert c.unmask[..., WIN].sum() == pytest.approx(totals.get("unmask_win", 0), abs=1e-12)
    assert c.unmask[..., MISTAKE].sum() == pytest.approx(totals.get("unmask_mistake", 0),
                                                         abs=1e-12)
    assert c.turn_choice[:, 1].sum() == pytest.approx(totals.get("use", 0), abs=1e-12)
    assert c.power_runs[..., FACE_UP].sum() == pytest.approx(totals.get("use", 0), abs=1e-12)
    assert c.witch[:, 1].sum() == pytest.approx(totals.get("witch swap", 0), abs=1e-12)
    assert stats.outcomes()["turn_cap_rate"][0] == pytest.approx(totals.get("turn_cap", 0))
    assert stats.outcomes()["mean_turns"][0] == pytest.approx(totals["turns"])
    # Every Robin/Sheriff power that ran ended in exactly one win or mistake.
    runs = c.power_runs[:, [Character.ROBIN, Character.SHERIFF], :].sum()
    assert c.unmask.sum() == pytest.approx(runs, abs=1e-12)


def test_every_probability_table_sums_to_one(monkeypatch):
    variant, game, policy, stats = solved("duel7:max_turns=2", iterations=20, symmetric=True)
    matrix = stats.announcement_matrix()
    reached = matrix["reach"] > 0
    np.testing.assert_allclose(matrix.drop(columns="reach")[reached].sum(axis=1), 1.0)
    for seat in (0, 1):
        per_seat = stats.announcement_matrix(seat)
        np.testing.assert_allclose(
            per_seat.drop(columns="reach")[per_seat["reach"] > 0].sum(axis=1), 1.0)
    summary = stats.peek_summary()
    np.testing.assert_allclose(
        summary[["silent_rate", "truth_rate", "bluff_rate"]].dropna().sum(axis=1), 1.0)
    assert "silent" not in stats.forced_lies().columns
    assert stats.forced_lies()["probability"].sum() == pytest.approx(1.0)
    assert matrix.loc["Trickster", "silent"] == 0.0  # peeking the Trickster forces a lie
    out = stats.outcomes().iloc[0]
    assert out[["seat0_wins", "seat1_wins", "draws"]].sum() == pytest.approx(1.0)
    assert out[["ended_by_unmask", "ended_by_elimination", "turn_cap_rate"]].sum() == \
        pytest.approx(1.0)
    assert stats.round_length_table()["probability"].sum() == pytest.approx(1.0)
    assert stats.counts.strikes_end.sum(axis=1) == pytest.approx([1.0, 1.0])
    # The split tables add up to the totals.
    bluffs = stats.bluff_rates()
    monkeypatch.setattr(statistics, "SPLIT_MIN_PER_ROUND", 0.0)  # keep every row
    for table in (stats.bluff_rates_by_strikes(), stats.bluff_rates_by_turn()):
        per_char = table.groupby(level="announced", sort=False)["announcements_per_round"].sum()
        np.testing.assert_allclose(per_char, bluffs.loc[per_char.index,
                                                         "announcements_per_round"])
    rates = stats.challenge_rates()
    for table in (stats.challenge_rates_by_strikes(), stats.challenge_rates_by_turn()):
        per_char = table.groupby(level="announced", sort=False)["responses_per_round"].sum()
        np.testing.assert_allclose(per_char, rates.loc[per_char.index, "responses_per_round"])


def test_best_of_three_against_the_match_markov_chain():
    """Check the closed form against a linear solve of the match's Markov chain, with
    the match rule of game_def.simulate (loser starts; after a draw, the non-starter)."""
    def chain(ps, po, pd_):
        states = [(a, b, s) for a in range(2) for b in range(2) for s in "AB"]
        index = {st: i for i, st in enumerate(states)}
        m, rhs = np.eye(len(states)), np.zeros(len(states))
        for (a, b, s), i in index.items():
            p_a = ps if s == "A" else po  # A wins this round
            p_b = po if s == "A" else ps
            for (na, nb, ns), p in (((a + 1, b, "B"), p_a), ((a, b + 1, "A"), p_b),
                                    ((a, b, "B" if s == "A" else "A"), pd_)):
                if na == 2:
                    rhs[i] += p
                elif nb < 2:
                    m[i, index[na, nb, ns]] -= p
        return np.linalg.solve(m, rhs)[index[0, 0, "A"]]

    for ps, po, pd_ in ((0.6, 0.3, 0.1), (0.2, 0.5, 0.3), (0.5, 0.5, 0.0), (1, 0, 0)):
        assert best_of_three(ps, po, pd_) == pytest.approx(chain(ps, po, pd_))
    assert best_of_three(1.0, 0.0, 0.0) == 1.0      # starter wins 1-0, 1-1, 2-1
    assert best_of_three(0.0, 1.0, 0.0) == 0.0      # the other wins twice
    assert best_of_three(0.4, 0.4, 0.2) == pytest.approx(0.5)
    assert np.isnan(best_of_three(0.0, 0.0, 1.0))


def test_sampled_counts_give_the_same_rates_with_intervals(one_turn):
    variant, _, _, exact = one_turn
    rounds = 10_000
    sampled = ProfileStatistics(variant, type(exact.counts)(*(a * rounds for a in exact.counts)),
                                rounds_sampled=rounds)
    pd.testing.assert_frame_equal(sampled.announcement_matrix(), exact.announcement_matrix())
    out = sampled.outcomes().iloc[0]
    assert out["seat0_wins"] == pytest.approx(exact.outcome[0])
    assert out["seat0_wins_lo"] <= out["seat0_wins"] <= out["seat0_wins_hi"]
    assert out["seat0_value_lo"] < out["seat0_value"] < out["seat0_value_hi"]
    assert out["seat0_value_hi"] - out["seat0_value_lo"] < 0.05
    rates = sampled.challenge_rates().dropna()
    assert (rates["challenge_rate_lo"] <= rates["challenge_rate"]).all()
    match = sampled.match().iloc[0]
    assert match["starter_match_win_lo"] <= match["starter_match_win"] <= \
        match["starter_match_win_hi"]
    with pytest.raises(ValueError, match="rounds of weight"):
        ProfileStatistics(variant, exact.counts, rounds_sampled=rounds)


def test_turn_buckets_cover_every_turn_once():
    for max_turns in (1, 2, 6, 7, 40, 100):
        covered = [t for _, lo, hi in turn_buckets(max_turns) for t in range(lo, hi + 1)]
        assert covered == list(range(1, max_turns + 1))
    assert [b[0] for b in turn_buckets(8)] == ["1", "2", "3", "4", "5-6", "7-8"]


def test_counts_refuse_more_than_two_players():
    with pytest.raises(ValueError, match="two-player"):
        counts_for(game_def.parse("standard:players=3"))
    assert ANNOUNCED == 0


def test_the_precision_break_even_is_taken_at_the_strikes_of_each_challenge():
    """Synthetic counts on the printed deck (two strikes a seat), 100 sampled rounds:
    Peasant claims challenged 3 times by a seat ahead in strikes (break-even 1/3: a
    strike on the claimant ends the round) and once at equal strikes (1/2), and passed
    5 times by a seat behind (2/3, not a challenge): the table's break-even is
    (3/3 + 1/2) / 4 = 0.375. A claim never challenged keeps the start's. Planted bugs
    caught: the start's 1/2 for every claim (the table before), the passes counted as
    challenges (0.5 + ...), the two seats' strikes swapped (2/3 for the first cell)."""
    from solver.scripted.sound import claim_break_even

    variant = game_def.parse("standard")
    counts = counts_for(variant)
    counts.rounds[0] = 100
    peasant = int(Character.PEASANT)
    # challenge[responder, its strikes, the claimant's, turn, claimed, true, challenged]
    counts.challenge[1, 0, 1, 2, peasant, 0, 1] = 2
    counts.challenge[0, 0, 1, 3, peasant, 1, 1] = 1
    counts.challenge[1, 0, 0, 0, peasant, 1, 1] = 1
    counts.challenge[0, 1, 0, 4, peasant, 1, 0] = 5
    table = ProfileStatistics(variant, counts, rounds_sampled=100).challenge_precision()
    assert table.at["Peasant", "break_even"] == pytest.approx((3 / 3 + 1 / 2) / 4)
    assert table.at["Peasant", "precision"] == pytest.approx(2 / 4)
    assert table.at["Companion", "break_even"] == pytest.approx(
        claim_break_even(variant, int(Character.COMPANION)))
