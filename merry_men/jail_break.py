"""The jail break ("Gefängnisausbruch"): distraction stones buy dice, hits distract guards.

The rules: trade in at most three distraction stones, two dice per stone; each success
distracts one guard; level 1, 2, 3 of the jail has 1, 2, 3 guards. Distract them all and
the companion is freed (victory points, resources from the sheriff's hideout); fail and
the hero moves on. Robin Hood may reroll one die per move.

Interpretations (docs/merry-men-dice.md):
  * "upfront" (default): the stones are traded in at once, then all 2k dice are rolled;
    "sequential" (the other reading): one stone at a time, two dice each, and the player
    may stop after any pair (never worse for the player);
  * the attempt succeeds when hits >= guards of the level (level = guards);
  * a failed attempt costs nothing beyond the stones spent (the rules name no fine);
  * `rescue_value` prices a freed companion, `stone_cost` a spent stone;
  * Robin Hood's reroll: `rerolls` single-die rerolls per attempt, each on a die that
    failed; Robin Hood has one;
  * risk neutral: the expected value (rescue_value * P(rescue) - stone_cost * E[stones])
    is maximised; ties go to the cheaper action and to no reroll (TIE_ORDER: stop, then
    stone, then reroll; fewer stones traded in at once), as every decision of the
    package breaks them (docs/merry-men-dice.md). With int/Fraction input the values are
    exact Fractions, so a tie is an exact equality (floats may lose one to rounding).

States: (stones_spent, hits, rerolls_left) after a roll; failed dice = 2 * stones - hits.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import pandas as pd

from ._numbers import DEFAULT_SUCCESS_PROBABILITY, Number, amount, binomial_pmf, count, probability

MAX_STONES = 3
DICE_PER_STONE = 2
LEVELS = (1, 2, 3)
MODES = ("upfront", "sequential")
ACTIONS = ("stop", "reroll", "stone")
# Equal values: the first of these that is legal (stop is free; between a stone and
# Robin Hood's reroll, no reroll, the package's rule for every reroll).
TIE_ORDER = ("stop", "stone", "reroll")


@dataclass(frozen=True)
class JailBreakPolicy:
    """A jail-break policy.

    mode: "upfront" or "sequential" (see the module docstring);
    upfront_stones: stones traded in at once (upfront mode only);
    actions[(stones_spent, hits, rerolls_left)]: "stop", "reroll" or "stone" while the
    guards are not all distracted. A missing state takes the first legal of "reroll",
    "stone", "stop" (try everything).
    """

    mode: str = "upfront"
    upfront_stones: int = MAX_STONES
    actions: dict = field(default_factory=dict)


@dataclass(frozen=True)
class JailBreakPlan:
    """The optimal jail-break policy, its expected value, its rescue chance and the
    expected number of stones it spends (all exact for rational inputs)."""

    policy: JailBreakPolicy
    value: Number
    p_rescue: Number
    expected_stones: Number


def _check(p, level, stones, rerolls, rescue_value, stone_cost, mode):
    p = probability(p)
    level = count(level, "level", 1, 3)
    stones = count(stones, "stones", 0, MAX_STONES)
    rerolls = count(rerolls, "rerolls", 0, 3)
    rescue_value = amount(rescue_value, "rescue_value")
    stone_cost = amount(stone_cost, "stone_cost")
    if mode not in MODES:
        raise ValueError(f"mode must be 'upfront' or 'sequential', got {mode!r}; 'upfront' "
                         f"trades all stones in before rolling, 'sequential' one at a time")
    return p, level, stones, rerolls, rescue_value, stone_cost, mode


def _legal(mode, spent, hits, r_left, stones):
    legal = ["stop"]
    if r_left > 0 and DICE_PER_STONE * spent > hits:
        legal.append("reroll")
    if mode == "sequential" and spent < stones:
        legal.append("stone")
    return legal


def _solve(p, level, stones, rerolls, rescue_value, stone_cost, mode, policy):
    """Returns (value, p_rescue, expected_stones, chosen policy)."""
    zero = p * 0
    chosen = {}

    def rescued(spent):
        return (rescue_value - spent * stone_cost, zero + 1, zero + spent)

    def mix(weighted):
        return tuple(sum((w * o[i] for w, o in weighted), zero) for i in range(3))

    def after(spent, hits, r_left):
        return rescued(spent) if hits >= level else state(spent, hits, r_left)

    def roll(spent_before, dice, hits, r_left):
        return mix([(binomial_pmf(dice, j, p), after(spent_before + dice // DICE_PER_STONE,
                                                     hits + j, r_left))
                    for j in range(dice + 1)])

    @lru_cache(maxsize=None)
    def state(spent, hits, r_left):
        outcomes = {"stop": (-spent * stone_cost, zero, zero + spent)}
        legal = _legal(mode, spent, hits, r_left, stones)
        if "reroll" in legal:
            outcomes["reroll"] = mix([(p, after(spent, hits + 1, r_left - 1)),
                                      (1 - p, state(spent, hits, r_left - 1))])
        if "stone" in legal:
            outcomes["stone"] = roll(spent, DICE_PER_STONE, hits, r_left)
        if policy is None:
            action = max(legal, key=lambda a: (outcomes[a][0], -TIE_ORDER.index(a)))
        else:
            action = policy.actions.get((spent, hits, r_left), legal[-1] if len(legal) < 3
                                        else "reroll")
            if action not in legal:
                raise ValueError(f"policy action {action!r} is not legal at stones_spent="
                                 f"{spent}, hits={hits}, rerolls_left={r_left}; legal: "
                                 f"{legal}")
        chosen[(spent, hits, r_left)] = action
        return outcomes[action]

    if mode == "sequential":
        result = state(0, 0, rerolls)
        upfront = 0
    else:
        options = {k: roll(0, DICE_PER_STONE * k, 0, rerolls) for k in range(stones + 1)}
        if policy is None:
            upfront = max(options, key=lambda k: (options[k][0], -k))
        else:
            upfront = policy.upfront_stones
            if upfront not in options:
                raise ValueError(f"upfront_stones must be between 0 and {stones} (the stones "
                                 f"available), got {upfront!r}")
        result = options[upfront]
        if policy is None:  # record the actions of the states the chosen trade-in reaches
            chosen = {k: v for k, v in chosen.items() if k[0] == upfront}
    plan_policy = JailBreakPolicy(mode=mode, upfront_stones=upfront, actions=dict(chosen))
    return result[0], result[1], result[2], plan_policy


def optimal_jail_break(p: object = DEFAULT_SUCCESS_PROBABILITY, level: int = 1,
                       stones: int = MAX_STONES, rerolls: int = 0,
                       rescue_value: object = 1, stone_cost: object = 0,
                       mode: str = "upfront") -> JailBreakPlan:
    """The best jail-break policy for a companion on `level` (= guards) and its value.

    With stone_cost = 0 the value is the rescue chance of the best policy.
    """
    args = _check(p, level, stones, rerolls, rescue_value, stone_cost, mode)
    value, p_rescue, expected, policy = _solve(*args, None)
    return JailBreakPlan(policy=policy, value=value, p_rescue=p_rescue,
                         expected_stones=expected)


def jail_break_policy_outcome(policy: JailBreakPolicy,
                              p: object = DEFAULT_SUCCESS_PROBABILITY, level: int = 1,
                              stones: int = MAX_STONES, rerolls: int = 0,
                              rescue_value: object = 1, stone_cost: object = 0
                              ) -> JailBreakPlan:
    """Exact value, rescue chance and expected stones of any policy (mode from policy)."""
    if not isinstance(policy, JailBreakPolicy):
        raise ValueError(f"policy must be a JailBreakPolicy, got {type(policy).__name__}; "
                         f"build one with JailBreakPolicy(mode=..., upfront_stones=...)")
    args = _check(p, level, stones, rerolls, rescue_value, stone_cost, policy.mode)
    value, p_rescue, expected, _ = _solve(*args, policy)
    return JailBreakPlan(policy=policy, value=value, p_rescue=p_rescue,
                         expected_stones=expected)


def jail_break_table(p: object = DEFAULT_SUCCESS_PROBABILITY, rerolls: int = 0
                     ) -> pd.DataFrame:
    """Exact rescue chance for each level (1..3) and each number of stones traded in at
    once (1..3), using the rerolls whenever the roll is short.

    Columns: level, stones, dice, p_rescue.
    """
    p = probability(p)
    rerolls = count(rerolls, "rerolls", 0, 3)
    rows = []
    for level in LEVELS:
        for stones in range(1, MAX_STONES + 1):
            plan = jail_break_policy_outcome(JailBreakPolicy("upfront", stones), p, level,
                                             stones, rerolls)
            rows.append({"level": level, "stones": stones, "dice": DICE_PER_STONE * stones,
                         "p_rescue": plan.p_rescue})
    return pd.DataFrame(rows)
