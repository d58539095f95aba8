"""Monte Carlo play of the four dice situations under a given policy.

This module is the independent check of the exact dynamic programmes: it rolls every
die one by one and follows the policy's table; it imports nothing from the DP modules
(the policies are read by their documented fields, and the defaults for missing states
are written out again here). Results keep every play's numbers, so tests can compare
means and frequencies with the exact values within a confidence interval.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import numpy as np

from ._numbers import amount, count, probability


@dataclass(frozen=True)
class SimulationResult:
    """Per-play samples of a Monte Carlo run: samples[name] is an array, one entry a play.

    Every run records "value" (the payoff of the play); each situation adds its own
    (see the simulate_* functions).
    """

    plays: int
    samples: dict

    def mean(self, name: str = "value") -> float:
        return float(np.mean(self.samples[name]))

    def interval(self, name: str = "value", z: float = 3.29) -> tuple:
        """(low, high): the mean plus or minus z standard errors (z = 3.29: 99.9 %)."""
        data = self.samples[name]
        half = z * float(np.std(data, ddof=1)) / math.sqrt(len(data))
        return (self.mean(name) - half, self.mean(name) + half)

    def frequency(self, name: str, value) -> float:
        """Share of plays whose `name` equals `value`."""
        return float(np.mean(self.samples[name] == value))


def _plays(plays) -> int:
    return count(plays, "plays", 2, 10 ** 8)


def _hits(rng: random.Random, dice: int, p: float) -> int:
    return sum(1 for _ in range(dice) if rng.random() < p)


def simulate_robbery(policy, p, loot_value=1, miss_cost=1, plays: int = 10_000,
                     seed: int = 0) -> SimulationResult:
    """Play market visits. policy: three booleans, attempt when holding 0, 1, 2 tiles.

    Samples: value, tiles (held at the end, 0 when jailed), jailed (0/1).
    """
    p = float(probability(p))
    loot_value = float(amount(loot_value, "loot_value"))
    miss_cost = float(amount(miss_cost, "miss_cost"))
    plays = _plays(plays)
    policy = tuple(policy)
    rng = random.Random(seed)
    value, tiles_out, jailed_out = np.empty(plays), np.empty(plays), np.empty(plays)
    for i in range(plays):
        tiles, jailed = 0, 0
        while tiles < 3 and policy[tiles]:
            if _hits(rng, 3 - tiles, p) >= 1:
                tiles += 1
            else:
                tiles, jailed = 0, 1
                break
        value[i] = tiles * loot_value - jailed * miss_cost
        tiles_out[i], jailed_out[i] = tiles, jailed
    return SimulationResult(plays, {"value": value, "tiles": tiles_out, "jailed": jailed_out})


def simulate_archery(policy, p, rerolls: int = 0, penny_value=1, failure_cost=0,
                     plays: int = 10_000, seed: int = 0) -> SimulationResult:
    """Play archery visits. policy: an object with dicts `play[(contest, rerolls_left)]`
    and `reroll[(contest, hits, rerolls_left)]` (missing: True).

    Samples: value, pennies (won), failed (0/1: a contest was lost).
    """
    p = float(probability(p))
    rerolls = count(rerolls, "rerolls", 0, 3)
    penny_value = float(amount(penny_value, "penny_value"))
    failure_cost = float(amount(failure_cost, "failure_cost"))
    plays = _plays(plays)
    rng = random.Random(seed)
    value, pennies_out, failed_out = np.empty(plays), np.empty(plays), np.empty(plays)
    for i in range(plays):
        pennies, failed, left = 0, 0, rerolls
        for contest in (1, 2, 3):
            if not policy.play.get((contest, left), True):
                break
            hits = _hits(rng, 3, p)
            while hits < contest and left > 0 and policy.reroll.get((contest, hits, left), True):
                left -= 1
                hits += rng.random() < p
            if hits < contest:
                failed = 1
                break
            pennies += 1
        value[i] = pennies * penny_value - failed * failure_cost
        pennies_out[i], failed_out[i] = pennies, failed
    return SimulationResult(plays, {"value": value, "pennies": pennies_out, "failed": failed_out})


def simulate_jail_break(policy, p, level: int, stones: int = 3, rerolls: int = 0,
                        rescue_value=1, stone_cost=0, plays: int = 10_000,
                        seed: int = 0) -> SimulationResult:
    """Play jail breaks. policy: an object with `mode` ("upfront"/"sequential"),
    `upfront_stones` and `actions[(stones_spent, hits, rerolls_left)]` in
    {"stop", "reroll", "stone"} (missing: first legal of reroll, stone, stop).

    Samples: value, rescued (0/1), stones (spent).
    """
    p = float(probability(p))
    level = count(level, "level", 1, 3)
    stones = count(stones, "stones", 0, 3)
    rerolls = count(rerolls, "rerolls", 0, 3)
    rescue_value = float(amount(rescue_value, "rescue_value"))
    stone_cost = float(amount(stone_cost, "stone_cost"))
    plays = _plays(plays)
    rng = random.Random(seed)
    value, rescued_out, stones_out = np.empty(plays), np.empty(plays), np.empty(plays)
    for i in range(plays):
        spent, hits, left = 0, 0, rerolls
        if policy.mode == "upfront":
            spent = policy.upfront_stones
            hits = _hits(rng, 2 * spent, p)
        while hits < level:
            can_reroll = left > 0 and 2 * spent > hits
            can_stone = policy.mode == "sequential" and spent < stones
            default = "reroll" if can_reroll else "stone" if can_stone else "stop"
            action = policy.actions.get((spent, hits, left), default)
            if action == "reroll" and can_reroll:
                left -= 1
                hits += rng.random() < p
            elif action == "stone" and can_stone:
                spent += 1
                hits += _hits(rng, 2, p)
            elif action == "stop":
                break
            else:
                raise ValueError(f"illegal action {action!r} at {(spent, hits, left)}")
        rescued = int(hits >= level)
        value[i] = rescued * rescue_value - spent * stone_cost
        rescued_out[i], stones_out[i] = rescued, spent
    return SimulationResult(plays, {"value": value, "rescued": rescued_out, "stones": stones_out})


def simulate_fight(policy, p, guards: int = 1, dice: int = 4, stones: int = 0,
                   guard_value=1, die_value=0, stone_value=0, last_guard_bonus=0,
                   plays: int = 10_000, seed: int = 0) -> SimulationResult:
    """Play fights at one meeting place. policy: an object with dicts
    `dice_to_roll[(guards_left, dice_left, stones_left)]` (missing: all dice left) and
    `reroll[(guards_left, dice_left, dice_rolled, stones_left)]` (missing: True).

    Samples: value, guards (beaten), dice (kept), stones (kept).
    """
    p = float(probability(p))
    guards = count(guards, "guards", 1, 4)
    dice = count(dice, "dice", 0, 4)
    stones = count(stones, "stones", 0, 10)
    guard_value = float(amount(guard_value, "guard_value"))
    die_value = float(amount(die_value, "die_value"))
    stone_value = float(amount(stone_value, "stone_value"))
    bonus = float(amount(last_guard_bonus, "last_guard_bonus"))
    plays = _plays(plays)
    rng = random.Random(seed)
    out = {name: np.empty(plays) for name in ("value", "guards", "dice", "stones")}
    for i in range(plays):
        g, d, s, beaten, payoff = guards, dice, stones, 0, 0.0
        while g > 0 and d > 0:
            k = policy.dice_to_roll.get((g, d, s), d)
            if k == 0:
                break
            success = _hits(rng, k, p) >= 1
            while not success and s > 0 and policy.reroll.get((g, d, k, s), True):
                s -= 1
                success = rng.random() < p
            if not success:
                break
            payoff += guard_value + (bonus if g == 1 else 0.0)
            g, d, beaten = g - 1, d - k, beaten + 1
        out["value"][i] = payoff + d * die_value + s * stone_value
        out["guards"][i], out["dice"][i], out["stones"][i] = beaten, d, s
    return SimulationResult(plays, out)
