"""The exact dice decisions of Robin Hood and the Merry Men (merry_men).

Three kinds of checks: small cases worked out by hand and compared exactly as
Fractions; every DP table and optimal value against the independent Monte Carlo
simulator (merry_men.simulate) within a 99.9 % interval (z = 3.29, fixed seeds); the
optimal policy against fixed alternatives and one-step deviations evaluated exactly.
"""

from __future__ import annotations

import ast
import doctest
import itertools
import math
from dataclasses import replace
from fractions import Fraction as F
from pathlib import Path

import pytest

import merry_men
from merry_men import robbery
from merry_men.simulate import (simulate_archery, simulate_fight, simulate_jail_break,
                                simulate_robbery)

Z = 3.29          # two-sided 99.9 %
PLAYS = 20_000
PS = (F(1, 2), F(1, 3))


def assert_frequency(result, name, value, exact):
    """The share of plays with samples[name] == value lies within z standard errors of
    the exact probability (standard error from the exact probability, so an exact 0 or 1
    must be met exactly)."""
    exact = float(exact)
    half = Z * math.sqrt(exact * (1 - exact) / result.plays)
    got = result.frequency(name, value)
    assert abs(got - exact) <= half + 1e-12, f"{name}={value}: simulated {got}, exact {exact}"


def assert_mean(result, name, exact):
    low, high = result.interval(name, Z)
    assert low - 1e-12 <= float(exact) <= high + 1e-12, \
        f"{name}: exact {float(exact)} outside the simulated interval ({low}, {high})"


# --------------------------------------------------------------------------- by hand

def test_robbery_by_hand():
    # p = 1/2: robbery 1 (3 dice) fails only if all three miss: 1 - 1/8 = 7/8;
    # robbery 2 (2 dice): 1 - 1/4 = 3/4; robbery 3 (1 die): 1/2.
    assert [merry_men.robbery_success_probability(k, F(1, 2)) for k in (1, 2, 3)] == \
        [F(7, 8), F(3, 4), F(1, 2)]
    table = merry_men.robbery_outcome_table(F(1, 2))
    # Planning three robberies: 7/8 * 3/4 * 1/2 = 21/64 to keep three tiles.
    assert list(table["p_tiles_3"]) == [0, 0, 0, F(21, 64)]
    assert list(table["p_jail"]) == [0, F(1, 8), F(11, 32), F(43, 64)]
    # Loot 1, miss 1. Holding 2: robbing again is 1/2 * 3 - 1/2 * 1 = 1 < 2, stop.
    # Holding 1: 3/4 * 2 - 1/4 = 5/4 > 1, go on. Holding 0: 7/8 * 5/4 - 1/8 = 31/32 > 0.
    plan = merry_men.optimal_robbery(F(1, 2), 1, 1)
    assert (plan.policy, plan.robberies, plan.value) == ((True, True, False), 2, F(31, 32))
    # p = 1/3: success chances 19/27, 5/9, 1/3. Holding 2: 1/3*3 - 2/3 = 1/3 < 2, stop;
    # holding 1: 5/9*2 - 4/9 = 2/3 < 1, stop; holding 0: 19/27 - 8/27 = 11/27 > 0: rob once.
    plan = merry_men.optimal_robbery(F(1, 3), 1, 1)
    assert (plan.robberies, plan.value) == (1, F(11, 27))
    # A fine of 7 with p = 1/2: 7/8 * 1 - 1/8 * 7 = 0, a tie, so not robbing at all.
    assert merry_men.optimal_robbery(F(1, 2), 1, 7).robberies == 0


def test_archery_by_hand():
    # p = 1/2, three dice: P(>=1) = 7/8, P(>=2) = 4/8 = 1/2, P(3) = 1/8.
    dist = merry_men.archery_penny_distribution(merry_men.ArcheryPolicy(), F(1, 2))
    # 0 pennies 1/8; 1: 7/8 * 1/2 = 7/16; 2: 7/8 * 1/2 * 7/8 = 49/128; 3: 7/8*1/2*1/8 = 7/128.
    assert list(dist["probability"]) == [F(1, 8), F(7, 16), F(49, 128), F(7, 128)]
    # One reroll: contest 1 is lost only if all three miss (1/8) and the reroll misses (1/2).
    table = merry_men.archery_contest_table(F(1, 2), rerolls=1)
    assert table["p_win"][0] == F(15, 16)
    # Contest 2 with the reroll still there (contest 1 won without it, 7/8):
    # 1/2 + P(exactly 1 hit) 3/8 * 1/2 = 11/16; with it spent in contest 1 (won by the
    # reroll, 1/16): 1/2. So 7/8 * 11/16 + 1/16 * 1/2 = 77/128 + 4/128 = 81/128.
    assert table["p_win"][1] == F(81, 128)
    # With no failure cost the optimum plays on and rerolls: value = expected pennies.
    plan = merry_men.optimal_archery(F(1, 2), rerolls=0)
    assert plan.value == F(7, 16) + 2 * F(49, 128) + 3 * F(7, 128)


def test_jail_break_by_hand():
    table = merry_men.jail_break_table(F(1, 2))
    get = {(r.level, r.stones): r.p_rescue for r in table.itertuples()}
    assert get[(1, 1)] == F(3, 4)            # 1 - (1/2)^2
    assert get[(2, 2)] == F(11, 16)          # P(>=2 of 4) = (6 + 4 + 1) / 16
    assert get[(3, 1)] == 0                  # two dice cannot beat three guards
    assert get[(3, 3)] == F(42, 64)          # P(>=3 of 6) = (20 + 15 + 6 + 1) / 64
    rerolled = merry_men.jail_break_table(F(1, 2), rerolls=1)
    get = {(r.level, r.stones): r.p_rescue for r in rerolled.itertuples()}
    assert get[(2, 2)] == F(11, 16) + F(4, 16) * F(1, 2)   # one hit short: reroll hits 1/2
    # Sequential stones at level 1, p = 1/2, stone cost 0: try up to three pairs:
    # fail only if all six dice miss, same as upfront: 63/64.
    plan = merry_men.optimal_jail_break(F(1, 2), 1, mode="sequential")
    assert plan.p_rescue == F(63, 64)
    # ... but it spends fewer stones: 1 + 1/4 + 1/16.
    assert plan.expected_stones == 1 + F(1, 4) + F(1, 16)


def test_fight_by_hand():
    table = merry_men.fight_win_table(F(1, 2), max_stones=2)
    get = {(r.dice, r.stones): r.p_win for r in table.itertuples()}
    for (dice, stones), p_win in get.items():
        assert p_win == 1 - F(1, 2) ** (dice + stones)
    # Two guards, four dice, p = 1/2, a guard worth 1, dice worthless. Rolling k dice at
    # guard 1, then the 4 - k left at guard 2 (a loss ends the visit), is worth
    # (1 - 2^-k) * (1 + 1 - 2^-(4-k)):  k = 1: 1/2 * 15/8 = 15/16;  k = 2: 3/4 * 7/4 = 21/16;
    # k = 3: 7/8 * 3/2 = 21/16;  k = 4: 15/16 * 1 = 15/16. Best 21/16, the tie goes to
    # fewer dice: k = 2.
    plan = merry_men.optimal_fight(F(1, 2), guards=2, dice=4)
    assert plan.value == F(21, 16)
    assert plan.policy.dice_to_roll[(2, 4, 0)] == 2


def test_sequential_jail_break_tie_goes_to_no_reroll():
    """Catches the old tie rule (stop, then reroll, then stone), which rerolled where
    docs/merry-men-dice.md says a tie goes to no reroll.

    Level 1, p = 1/2, three stones, one reroll, stones free. After a first pair of dice
    missed (state: 1 stone spent, 0 hits, 1 reroll left) two stones and the reroll are
    five dice' worth of chances, one success frees the companion: whichever is used
    first, the rescue chance from there is 1 - (1/2)^5 = 31/32, so a stone and the
    reroll tie exactly (Fractions) and the tie goes to the stone; the same after a
    second missed pair (2 spent: 1 - (1/2)^3 either way). With the last stone spent
    only the reroll is left, and it is taken. Overall rescue 1 - (1/2)^7 = 127/128, as
    with the reroll first, which spends fewer stones: 37/32 against 1 + 1/4 + 1/16."""
    plan = merry_men.optimal_jail_break(F(1, 2), 1, stones=3, rerolls=1, mode="sequential")
    actions = plan.policy.actions
    assert actions[(1, 0, 1)] == "stone" and actions[(2, 0, 1)] == "stone"
    assert actions[(3, 0, 1)] == "reroll"
    assert plan.value == plan.p_rescue == F(127, 128)
    assert plan.expected_stones == 1 + F(1, 4) + F(1, 16)
    reroll_first = {**actions, (1, 0, 1): "reroll", (2, 0, 1): "reroll"}
    rival = merry_men.jail_break_policy_outcome(
        merry_men.JailBreakPolicy("sequential", actions=reroll_first), F(1, 2), 1, 3, 1)
    assert rival.value == plan.value                    # a tie, exactly
    assert rival.expected_stones == F(37, 32)


def test_a_fight_may_be_declined_from_the_start():
    """The documented decline (docs/merry-men-dice.md, Fights 6): four dice worth 1 each
    against one guard worth 1 at p = 1/2: one die rolled is worth 1/2 (1 + 3) + 1/2 4 =
    4, the 4 of leaving, a tie that goes to leaving; dice worth 2 make leaving strictly
    better. Catches ties broken toward fighting (rolling more dice)."""
    tie = merry_men.optimal_fight(F(1, 2), guards=1, dice=4, die_value=1)
    assert tie.policy.dice_to_roll[(1, 4, 0)] == 0
    assert tie.value == 4 and tie.expected_guards == 0
    rolled = merry_men.fight_policy_outcome(
        merry_men.FightPolicy(dice_to_roll={(1, 4, 0): 1}), F(1, 2), 1, 4, die_value=1)
    assert rolled.value == 4                            # exactly the tie
    strict = merry_men.optimal_fight(F(1, 2), guards=1, dice=4, die_value=2)
    assert strict.policy.dice_to_roll[(1, 4, 0)] == 0 and strict.value == 8
    # dice worth nothing: the first fight is always taken
    assert merry_men.optimal_fight(F(1, 3), guards=3, dice=4).policy.dice_to_roll[
        (3, 4, 0)] > 0


def test_float_input_gives_float_results():
    plan = merry_men.optimal_robbery(0.5, 1.0, 1.0)
    assert isinstance(plan.value, float) and plan.value == pytest.approx(31 / 32)
    assert merry_men.optimal_jail_break(0.5, 2, rerolls=1).p_rescue == \
        pytest.approx(15 / 16)


def test_the_docstring_example_holds():
    assert doctest.testmod(robbery).failed == 0
    assert doctest.testmod(robbery).attempted == 1


# ------------------------------------------------------------------ against simulation

@pytest.mark.parametrize("p", PS, ids=str)
def test_robbery_tables_and_optimum_match_simulation(p):
    table = merry_men.robbery_outcome_table(p, 2, 3)
    for row in table.itertuples():
        result = simulate_robbery(merry_men.policy_aiming_for(row.planned), p, 2, 3,
                                  plays=PLAYS, seed=10 + row.planned)
        assert_frequency(result, "jailed", 1, row.p_jail)
        for tiles in range(4):
            exact = getattr(row, f"p_tiles_{tiles}")
            out_of_jail = result.samples["tiles"][result.samples["jailed"] == 0]
            assert abs(float((out_of_jail == tiles).sum()) / PLAYS - float(exact)) <= \
                Z * math.sqrt(float(exact) * (1 - float(exact)) / PLAYS) + 1e-12
        assert_mean(result, "value", row.expected_value)
    plan = merry_men.optimal_robbery(p, 2, 3)
    assert_mean(simulate_robbery(plan.policy, p, 2, 3, plays=PLAYS, seed=5), "value",
                plan.value)


@pytest.mark.parametrize("p", PS, ids=str)
@pytest.mark.parametrize("rerolls", [0, 1, 2])
def test_archery_tables_and_optimum_match_simulation(p, rerolls):
    dist = merry_men.archery_penny_distribution(merry_men.ArcheryPolicy(), p, rerolls)
    result = simulate_archery(merry_men.ArcheryPolicy(), p, rerolls, plays=PLAYS, seed=rerolls)
    for row in dist.itertuples():
        assert_frequency(result, "pennies", row.pennies, row.probability)
    table = merry_men.archery_contest_table(p, rerolls)
    for row in table.itertuples():
        share = float((result.samples["pennies"] >= row.contest).mean())
        assert abs(share - float(row.p_win)) <= \
            Z * math.sqrt(float(row.p_win * (1 - row.p_win)) / PLAYS) + 1e-12
    plan = merry_men.optimal_archery(p, rerolls, penny_value=1, failure_cost=F(3, 2))
    sim = simulate_archery(plan.policy, p, rerolls, 1, F(3, 2), plays=PLAYS, seed=7)
    assert_mean(sim, "value", plan.value)
    for row in plan.pennies.itertuples():
        assert_frequency(sim, "pennies", row.pennies, row.probability)


@pytest.mark.parametrize("p", PS, ids=str)
@pytest.mark.parametrize("rerolls", [0, 1])
def test_jail_break_table_matches_simulation(p, rerolls):
    table = merry_men.jail_break_table(p, rerolls)
    for row in table.itertuples():
        policy = merry_men.JailBreakPolicy("upfront", row.stones)
        result = simulate_jail_break(policy, p, row.level, row.stones, rerolls, plays=PLAYS,
                                     seed=100 * row.level + row.stones)
        assert_frequency(result, "rescued", 1, row.p_rescue)


@pytest.mark.parametrize("p", PS, ids=str)
@pytest.mark.parametrize("mode", ["upfront", "sequential"])
@pytest.mark.parametrize("level", [1, 2, 3])
def test_jail_break_optimum_matches_simulation(p, mode, level):
    args = dict(stones=3, rerolls=1, rescue_value=3, stone_cost=F(1, 2))
    plan = merry_men.optimal_jail_break(p, level, mode=mode, **args)
    result = simulate_jail_break(plan.policy, p, level, plays=PLAYS, seed=level, **args)
    assert_mean(result, "value", plan.value)
    assert_frequency(result, "rescued", 1, plan.p_rescue)
    assert_mean(result, "stones", plan.expected_stones)


@pytest.mark.parametrize("p", PS, ids=str)
def test_fight_table_matches_simulation(p):
    for row in merry_men.fight_win_table(p, max_stones=3).itertuples():
        result = simulate_fight(merry_men.FightPolicy(), p, 1, row.dice, row.stones,
                                plays=PLAYS, seed=10 * row.dice + row.stones)
        assert_frequency(result, "guards", 1, row.p_win)


@pytest.mark.parametrize("p", PS, ids=str)
@pytest.mark.parametrize("guards,stones", [(1, 2), (2, 1), (3, 2), (4, 3)])
def test_fight_optimum_matches_simulation(p, guards, stones):
    args = dict(guards=guards, dice=4, stones=stones, guard_value=2, die_value=F(1, 2),
                stone_value=F(1, 3), last_guard_bonus=3)
    plan = merry_men.optimal_fight(p, **args)
    result = simulate_fight(plan.policy, p, plays=PLAYS, seed=guards, **args)
    assert_mean(result, "value", plan.value)
    assert_mean(result, "guards", plan.expected_guards)


# ------------------------------------------------------- the optimum beats alternatives

GRID = [(p, loot, miss) for p in (F(1, 6), F(1, 3), F(1, 2), F(2, 3), F(5, 6))
        for loot, miss in ((1, 0), (1, 1), (1, 3), (2, 1), (1, 10))]


@pytest.mark.parametrize("p,loot,miss", GRID, ids=str)
def test_robbery_optimum_is_the_best_of_all_policies(p, loot, miss):
    plan = merry_men.optimal_robbery(p, loot, miss)
    values = [merry_men.robbery_policy_value(policy, p, loot, miss)
              for policy in itertools.product([False, True], repeat=3)]
    assert plan.value == max(values)          # the eight policies include every policy
    assert merry_men.robbery_policy_value(plan.policy, p, loot, miss) == plan.value


def _flips(mapping):
    """Every mapping that differs from `mapping` in one boolean."""
    for key, value in mapping.items():
        yield {**mapping, key: not value}


@pytest.mark.parametrize("p", [F(1, 6), F(1, 2), F(4, 5)], ids=str)
@pytest.mark.parametrize("failure_cost", [0, F(1, 2), 2])
def test_archery_optimum_beats_one_step_deviations(p, failure_cost):
    plan = merry_men.optimal_archery(p, 2, 1, failure_cost)
    policy = plan.policy
    assert merry_men.archery_policy_value(policy, p, 2, 1, failure_cost) == plan.value
    rivals = [replace(policy, play=m) for m in _flips(policy.play)]
    rivals += [replace(policy, reroll=m) for m in _flips(policy.reroll)]
    rivals += [merry_men.ArcheryPolicy(),                              # always on
               merry_men.ArcheryPolicy(reroll={k: False for k in policy.reroll})]
    values = [merry_men.archery_policy_value(r, p, 2, 1, failure_cost) for r in rivals]
    assert all(v <= plan.value for v in values)
    assert any(v < plan.value for v in values)        # deviations are not all free


@pytest.mark.parametrize("p", [F(1, 6), F(1, 2), F(4, 5)], ids=str)
@pytest.mark.parametrize("level", [1, 2, 3])
@pytest.mark.parametrize("stone_cost", [0, F(1, 5), 1])
def test_jail_break_optimum_beats_fixed_policies(p, level, stone_cost):
    args = dict(stones=3, rerolls=1, rescue_value=2, stone_cost=stone_cost)
    best = {m: merry_men.optimal_jail_break(p, level, mode=m, **args) for m in ("upfront",
                                                                                "sequential")}
    upfront = [merry_men.JailBreakPolicy("upfront", k, {a: "stop" for a in acts})
               for k in range(4) for acts in ([], [(s, h, 1) for s in range(4)
                                                   for h in range(level)])]
    for rival in upfront:
        value = merry_men.jail_break_policy_outcome(rival, p, level, **args).value
        assert value <= best["upfront"].value
    assert best["upfront"].value == max(
        merry_men.jail_break_policy_outcome(merry_men.JailBreakPolicy("upfront", k), p, level,
                                            **args).value for k in range(4))
    seq = best["sequential"].policy
    for key, action in seq.actions.items():
        for other in ("stop", "reroll", "stone"):
            rival = replace(seq, actions={**seq.actions, key: other})
            try:
                value = merry_men.jail_break_policy_outcome(rival, p, level, **args).value
            except ValueError:
                continue                                # not legal in that state
            assert value <= best["sequential"].value
    # Stopping stone by stone is never worse than trading all stones in at once.
    assert best["sequential"].value >= best["upfront"].value


@pytest.mark.parametrize("p", [F(1, 6), F(1, 2), F(4, 5)], ids=str)
@pytest.mark.parametrize("guards", [1, 2, 3])
@pytest.mark.parametrize("die_value,stone_value", [(0, 0), (F(1, 2), F(1, 4)), (1, 1)])
def test_fight_optimum_beats_fixed_policies(p, guards, die_value, stone_value):
    args = dict(guards=guards, dice=4, stones=2, guard_value=2, die_value=die_value,
                stone_value=stone_value, last_guard_bonus=1)
    plan = merry_men.optimal_fight(p, **args)
    states = [(g, d, s) for g in range(1, 5) for d in range(1, 5) for s in range(3)]
    rivals = []
    for k in range(0, 5):
        for use_stones in (True, False):
            rivals.append(merry_men.FightPolicy(
                dice_to_roll={(g, d, s): min(k, d) for g, d, s in states},
                reroll={(g, d, kk, s): use_stones for g, d, s in states
                        for kk in range(1, 5)}))
    for key, k in plan.policy.dice_to_roll.items():
        for other in range(0, key[1] + 1):
            rivals.append(replace(plan.policy,
                                  dice_to_roll={**plan.policy.dice_to_roll, key: other}))
    rivals += [replace(plan.policy, reroll=m) for m in _flips(plan.policy.reroll)]
    values = [merry_men.fight_policy_outcome(r, p, **args).value for r in rivals]
    assert max(values) <= plan.value
    assert merry_men.fight_policy_outcome(plan.policy, p, **args).value == plan.value


# ------------------------------------------------------------------------ bad input

@pytest.mark.parametrize("call,message", [
    (lambda: merry_men.optimal_robbery(F(3, 2)), "p must be a probability in \\[0, 1\\]"),
    (lambda: merry_men.optimal_robbery(-0.1), "p must be a probability in \\[0, 1\\]"),
    (lambda: merry_men.optimal_robbery(float("nan")), "p must be finite"),
    (lambda: merry_men.optimal_robbery("1/2"), "p must be a number"),
    (lambda: merry_men.optimal_robbery(True), "p must be a number"),
    (lambda: merry_men.optimal_robbery(F(1, 2), loot_value=-1), "loot_value must be >= 0"),
    (lambda: merry_men.optimal_robbery(F(1, 2), miss_cost=-2), "miss_cost must be >= 0"),
    (lambda: merry_men.robbery_success_probability(4, F(1, 2)), "robbery must be 1, 2 or 3"),
    (lambda: merry_men.policy_aiming_for(5), "robberies must be 0, 1, 2 or 3"),
    (lambda: merry_men.robbery_policy_value((True,), F(1, 2)), "policy must be three"),
    (lambda: merry_men.optimal_archery(F(1, 2), rerolls=-1),
     "rerolls must be between 0 and 3"),
    (lambda: merry_men.optimal_archery(F(1, 2), failure_cost=-1), "failure_cost must be >= 0"),
    (lambda: merry_men.archery_policy_value("all", F(1, 2)), "policy must be an ArcheryPolicy"),
    (lambda: merry_men.optimal_jail_break(F(1, 2), 4), "level must be between 1 and 3"),
    (lambda: merry_men.optimal_jail_break(F(1, 2), 1, stones=4),
     "stones must be between 0 and 3"),
    (lambda: merry_men.optimal_jail_break(F(1, 2), 1, stones=1.5),
     "stones must be an integer"),
    (lambda: merry_men.optimal_jail_break(F(1, 2), 1, mode="greedy"),
     "mode must be 'upfront' or 'sequential'"),
    (lambda: merry_men.jail_break_policy_outcome(
        merry_men.JailBreakPolicy("upfront", 3), F(1, 2), 1, stones=2),
     "upfront_stones must be between 0 and 2"),
    (lambda: merry_men.jail_break_policy_outcome(
        merry_men.JailBreakPolicy("upfront", 1, {(1, 0, 0): "stone"}), F(1, 2), 2),
     "policy action 'stone' is not legal"),
    (lambda: merry_men.optimal_fight(F(1, 2), dice=-1), "dice must be between 0 and 4"),
    (lambda: merry_men.optimal_fight(F(1, 2), guards=0), "guards must be between 1 and 4"),
    (lambda: merry_men.optimal_fight(F(1, 2), die_value=-1), "die_value must be >= 0"),
    (lambda: merry_men.fight_policy_outcome(
        merry_men.FightPolicy(dice_to_roll={(1, 2, 0): 3}), F(1, 2), 1, 2),
     "policy rolls 3 dice with 2 dice left"),
    (lambda: simulate_robbery((True,) * 3, 2.0), "p must be a probability"),
    (lambda: simulate_fight(merry_men.FightPolicy(), F(1, 2), plays=0),
     "plays must be between 2"),
])
def test_bad_input_raises_value_error_naming_the_problem(call, message):
    with pytest.raises(ValueError, match=message):
        call()


# ---------------------------------------------------------------------- independence

def test_the_simulator_does_not_use_the_dp_modules():
    tree = ast.parse(Path(merry_men.simulate.__file__).read_text())
    imported = {node.module for node in ast.walk(tree)
                if isinstance(node, ast.ImportFrom) and node.module}
    assert imported & {"robbery", "archery", "jail_break", "fight"} == set()
    assert imported <= {"__future__", "dataclasses", "_numbers"}
    text = Path(merry_men.simulate.__file__).read_text()
    assert not any(name in text for name in ("optimal_", "_policy_value", "_policy_outcome",
                                             "_table(", "_solve"))
