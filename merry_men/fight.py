"""Fighting guards at a meeting place ("Wachen an Versammlungsstätten bekämpfen").

The rules: the hero picks a guard and rolls one to four of their weapon dice (of the
meeting place's weapon); one success wins. Each distraction stone rerolls one die. A
lost fight keeps all dice and ends the visit; a won fight removes the guard (one
reputation), sends the rolled dice to the armoury, and the hero may fight the next guard
there with the dice left, all in one move. Beating the last guard pays the place's reward.

Interpretations (docs/merry-men-dice.md):
  * all of the hero's `dice` match the place's weapon (others cannot be rolled here);
  * on a win *every rolled die* is spent ("Alle genutzten Würfel"), so rolling more dice
    buys a safer win at the price of fewer dice for the next guard;
  * a stone rerolls one failed die; since one success wins, stones matter only after all
    rolled dice failed, and the player decides stone by stone whether to go on;
  * payoffs: `guard_value` per guard beaten (reputation and whatever the guard held),
    `last_guard_bonus` for beating the last guard at the place, `die_value` for every
    weapon die kept at the end, `stone_value` for every stone kept at the end;
  * the hero may also leave before any fight, the first included (0 dice rolled): the
    optimum declines the first fight when the dice and stones it keeps (die_value,
    stone_value) are worth at least what fighting is expected to bring;
  * risk neutral; ties go to leaving / rolling fewer dice / not spending a stone.

States: (guards_left, dice_left, stones_left) before a fight, and
(guards_left, dice_left, dice_rolled, stones_left) after every rolled die failed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import pandas as pd

from ._numbers import DEFAULT_SUCCESS_PROBABILITY, Number, amount, count, probability

MAX_DICE = 4
MAX_GUARDS = 4
MAX_STONES = 10


@dataclass(frozen=True)
class FightPolicy:
    """A fight policy.

    dice_to_roll[(guards_left, dice_left, stones_left)]: dice to roll at the next guard
    (0 = leave); a missing state rolls all dice left.
    reroll[(guards_left, dice_left, dice_rolled, stones_left)]: after every rolled die
    failed, spend a stone to reroll one (False = accept the loss); a missing state
    rerolls.
    """

    dice_to_roll: dict = field(default_factory=dict)
    reroll: dict = field(default_factory=dict)


@dataclass(frozen=True)
class FightPlan:
    """The optimal fight policy with its exact expected value and expected guards beaten."""

    policy: FightPolicy
    value: Number
    expected_guards: Number


def _check(p, guards, dice, stones, guard_value, die_value, stone_value, last_guard_bonus):
    return (probability(p), count(guards, "guards", 1, MAX_GUARDS),
            count(dice, "dice", 0, MAX_DICE), count(stones, "stones", 0, MAX_STONES),
            amount(guard_value, "guard_value"), amount(die_value, "die_value"),
            amount(stone_value, "stone_value"),
            amount(last_guard_bonus, "last_guard_bonus"))


def _solve(p, guards, dice, stones, guard_value, die_value, stone_value, bonus, policy):
    """Returns (value, expected guards beaten, chosen policy)."""
    zero = p * 0
    roll_choice, reroll_choice = {}, {}

    def leave(d, s):
        return (d * die_value + s * stone_value, zero)

    def won(g, d, k, s):
        value, beaten = fight(g - 1, d - k, s)
        return (value + guard_value + (bonus if g == 1 else zero), beaten + 1)

    @lru_cache(maxsize=None)
    def all_failed(g, d, k, s):
        give_up = leave(d, s)
        if s == 0:
            reroll_choice[(g, d, k, s)] = False
            return give_up
        a, b = won(g, d, k, s - 1), all_failed(g, d, k, s - 1)
        spend = (p * a[0] + (1 - p) * b[0], p * a[1] + (1 - p) * b[1])
        use = spend[0] > give_up[0] if policy is None else policy.reroll.get((g, d, k, s), True)
        reroll_choice[(g, d, k, s)] = use
        return spend if use else give_up

    @lru_cache(maxsize=None)
    def fight(g, d, s):
        if g == 0 or d == 0:
            return leave(d, s)
        outcomes = {0: leave(d, s)}
        for k in range(1, d + 1):
            miss = (1 - p) ** k
            a, b = won(g, d, k, s), all_failed(g, d, k, s)
            outcomes[k] = ((1 - miss) * a[0] + miss * b[0], (1 - miss) * a[1] + miss * b[1])
        if policy is None:
            k = max(outcomes, key=lambda k: (outcomes[k][0], -k))
        else:
            k = policy.dice_to_roll.get((g, d, s), d)
            if k not in outcomes:
                raise ValueError(f"policy rolls {k!r} dice with {d} dice left (guards_left={g}, "
                                 f"stones_left={s}); roll between 0 and {d}")
        roll_choice[(g, d, s)] = k
        return outcomes[k]

    value, beaten = fight(guards, dice, stones)
    return value, beaten, FightPolicy(dice_to_roll=roll_choice, reroll=reroll_choice)


def optimal_fight(p: object = DEFAULT_SUCCESS_PROBABILITY, guards: int = 1,
                  dice: int = MAX_DICE, stones: int = 0,
                  guard_value: object = 1, die_value: object = 0, stone_value: object = 0,
                  last_guard_bonus: object = 0) -> FightPlan:
    """The best fight policy at a meeting place: dice per guard, stones per reroll.

    The first choice, policy.dice_to_roll[(guards, dice, stones)], may be 0: the best
    plan is then not to fight at all (value = what the dice and stones kept are worth),
    as when die_value makes every die rolled cost more than the guards it may win, or on
    a tie, which goes to leaving. With die_value = stone_value = 0, guard_value > 0 and
    p > 0 fighting is strictly better and the first fight is always taken.
    """
    args = _check(p, guards, dice, stones, guard_value, die_value, stone_value,
                  last_guard_bonus)
    value, beaten, policy = _solve(*args, None)
    return FightPlan(policy=policy, value=value, expected_guards=beaten)


def fight_policy_outcome(policy: FightPolicy, p: object = DEFAULT_SUCCESS_PROBABILITY,
                         guards: int = 1,
                         dice: int = MAX_DICE, stones: int = 0, guard_value: object = 1,
                         die_value: object = 0, stone_value: object = 0,
                         last_guard_bonus: object = 0) -> FightPlan:
    """Exact expected value and expected guards beaten of any FightPolicy."""
    if not isinstance(policy, FightPolicy):
        raise ValueError(f"policy must be a FightPolicy, got {type(policy).__name__}; build "
                         f"one with FightPolicy(dice_to_roll={{...}}, reroll={{...}})")
    args = _check(p, guards, dice, stones, guard_value, die_value, stone_value,
                  last_guard_bonus)
    value, beaten, _ = _solve(*args, policy)
    return FightPlan(policy=policy, value=value, expected_guards=beaten)


def fight_win_table(p: object = DEFAULT_SUCCESS_PROBABILITY, max_stones: int = 3
                    ) -> pd.DataFrame:
    """Exact chance to beat one guard rolling 1..4 dice with 0..max_stones stones, every
    stone spent on a reroll while no die has succeeded.

    Columns: dice, stones, p_win (= 1 - (1 - p) ** (dice + stones), computed by the DP).
    """
    p = probability(p)
    max_stones = count(max_stones, "max_stones", 0, MAX_STONES)
    rows = []
    for dice in range(1, MAX_DICE + 1):
        for stones in range(max_stones + 1):
            policy = FightPolicy(dice_to_roll={(1, dice, stones): dice})
            plan = fight_policy_outcome(policy, p, 1, dice, stones)
            rows.append({"dice": dice, "stones": stones, "p_win": plan.expected_guards})
    return pd.DataFrame(rows)
