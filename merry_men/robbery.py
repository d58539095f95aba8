"""Robbing the rich ("Die Reichen ausrauben"): up to three robberies in a row.

The rules: robbery 1 rolls three skill dice, robbery 2 two, robbery 3 one; a robbery
succeeds on at least one success and then gains one loot tile. After each success the
player may stop or go on. A robbery without a success forfeits *all* loot tiles of this
visit, sends the companion to jail and costs a fine.

Interpretations (docs/merry-men-dice.md):
  * the decision before robbery 1 is "rob at all?" (value 0 if not); a miss on robbery 1
    costs the fine although no loot is lost;
  * a loot tile is worth its expected value `loot_value` (tiles are drawn at random);
  * `miss_cost` is the whole price of a miss: the fine plus being in jail;
  * the player is risk neutral (maximises the expected value).

State of the dynamic programme: `banked`, the loot tiles held (= robberies won, 0..3).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import pandas as pd

from ._numbers import DEFAULT_SUCCESS_PROBABILITY, Number, amount, at_least, probability

ROBBERIES = 3
DICE_PER_ROBBERY = (3, 2, 1)
"""Dice rolled in robbery 1, 2 and 3."""

RobberyPolicy = tuple
"""Three booleans: attempt the next robbery when holding 0, 1, 2 loot tiles."""


@dataclass(frozen=True)
class RobberyPlan:
    """The optimal robbery policy and its expected value.

    policy: attempt the next robbery when holding 0, 1, 2 tiles (a tuple of bools);
    robberies: how many robberies the policy aims for (0..3);
    value: expected value of the visit under the policy;
    table: one row per state: dice, success chance, value of stopping / going on.
    """

    policy: tuple
    robberies: int
    value: Number
    table: pd.DataFrame


def robbery_success_probability(robbery: int, p: object = DEFAULT_SUCCESS_PROBABILITY
                                ) -> Number:
    """P(robbery number `robbery` (1..3) succeeds) = 1 - (1 - p) ** dice."""
    p = probability(p)
    if isinstance(robbery, bool) or robbery not in (1, 2, 3):
        raise ValueError(f"robbery must be 1, 2 or 3, got {robbery!r}; robberies are numbered "
                         f"in the order they are made")
    return at_least(DICE_PER_ROBBERY[robbery - 1], 1, p)


def policy_aiming_for(robberies: int) -> tuple:
    """The fixed policy "attempt robberies until `robberies` tiles are banked, then stop"."""
    if isinstance(robberies, bool) or robberies not in range(ROBBERIES + 1):
        raise ValueError(f"robberies must be 0, 1, 2 or 3, got {robberies!r}; it is the "
                         f"number of robberies the player plans to make")
    return tuple(banked < robberies for banked in range(ROBBERIES))


def _check_policy(policy: Sequence[bool]) -> tuple:
    policy = tuple(policy)
    if len(policy) != ROBBERIES or not all(isinstance(x, bool) for x in policy):
        raise ValueError(f"policy must be three booleans (attempt when holding 0, 1, 2 "
                         f"tiles), got {policy!r}; build one with policy_aiming_for(k)")
    return policy


def robbery_outcome_table(p: object = DEFAULT_SUCCESS_PROBABILITY, loot_value: object = 1,
                          miss_cost: object = 1) -> pd.DataFrame:
    """Exact outcome distribution of each fixed plan "make k robberies" (k = 0..3).

    Columns: planned (k), p_jail (a miss somewhere), p_tiles_0..p_tiles_3 (end the visit
    out of jail holding that many tiles; with p_jail they sum to 1), expected_tiles,
    expected_value (tiles * loot_value, minus miss_cost when jailed).
    """
    p = probability(p)
    loot_value = amount(loot_value, "loot_value")
    miss_cost = amount(miss_cost, "miss_cost")
    rows = []
    for planned in range(ROBBERIES + 1):
        reach = p * 0 + 1
        for robbery in range(1, planned + 1):
            reach *= robbery_success_probability(robbery, p)
        row = {"planned": planned, "p_jail": 1 - reach}
        for tiles in range(ROBBERIES + 1):
            row[f"p_tiles_{tiles}"] = reach if tiles == planned else p * 0
        row["expected_tiles"] = planned * reach
        row["expected_value"] = planned * reach * loot_value - (1 - reach) * miss_cost
        rows.append(row)
    return pd.DataFrame(rows)


def _solve(p: Number, loot_value: Number, miss_cost: Number, policy: "tuple | None"):
    """Backward induction; follows `policy` when given, else takes the best action."""
    value = {ROBBERIES: ROBBERIES * loot_value}
    rows, choices = [], {}
    for banked in range(ROBBERIES - 1, -1, -1):
        q = robbery_success_probability(banked + 1, p)
        stop = banked * loot_value
        attempt = q * value[banked + 1] - (1 - q) * miss_cost
        go_on = policy[banked] if policy is not None else attempt > stop
        choices[banked] = go_on
        value[banked] = attempt if go_on else stop
        rows.append({"banked": banked, "dice": DICE_PER_ROBBERY[banked], "p_success": q,
                     "stop_value": stop, "attempt_value": attempt, "attempt": go_on,
                     "value": value[banked]})
    return value[0], tuple(choices[b] for b in range(ROBBERIES)), pd.DataFrame(rows[::-1])


def optimal_robbery(p: object = DEFAULT_SUCCESS_PROBABILITY, loot_value: object = 1,
                    miss_cost: object = 1) -> RobberyPlan:
    """The stop-or-continue policy that maximises the expected value of a market visit.

    Ties go to stopping (the safer choice).

    With p = 1/2, a tile worth 1 and a miss costing 1 the player robs twice:
    >>> optimal_robbery(0.5).robberies
    2
    """
    p = probability(p)
    loot_value = amount(loot_value, "loot_value")
    miss_cost = amount(miss_cost, "miss_cost")
    value, policy, table = _solve(p, loot_value, miss_cost, None)
    robberies = 0
    while robberies < ROBBERIES and policy[robberies]:
        robberies += 1
    return RobberyPlan(policy=policy, robberies=robberies, value=value, table=table)


def robbery_policy_value(policy: Sequence[bool], p: object = DEFAULT_SUCCESS_PROBABILITY,
                         loot_value: object = 1, miss_cost: object = 1) -> Number:
    """Exact expected value of any policy (three booleans: attempt at 0, 1, 2 tiles)."""
    policy = _check_policy(policy)
    p = probability(p)
    loot_value = amount(loot_value, "loot_value")
    miss_cost = amount(miss_cost, "miss_cost")
    return _solve(p, loot_value, miss_cost, policy)[0]
