"""The archery contest ("Bogenschießwettkampf"): three contests, 1, 2, 3 hits from 3 dice.

The rules: every visit starts with contest 1. Each contest rolls three skill dice;
contest c needs at least c hits. A won contest pays one silver penny and leads to the
next; a lost contest ends the visit (the hero must change location). Pennies already won
are kept. Robin Hood may reroll one die ("ein Würfel ... pro Zug neu würfeln").

Interpretations (docs/merry-men-dice.md):
  * each contest is a fresh roll of three dice (the text: "Man wirft drei
    Fertigkeitswürfel"; the following contests say only how many hits are needed);
  * every won contest pays one penny worth `penny_value`, contest 3 included;
  * the player may stop before any contest (the rules do not force going on; with
    `failure_cost` = 0, the rules' case, going on is never worse);
  * `failure_cost` (default 0, the rules name none) prices the forced change of
    location after a lost contest, for players who value it;
  * Robin Hood's reroll is a pool of `rerolls` single-die rerolls for the whole visit
    ("pro Zug": the three contests are one move); a reroll rerolls one failed die;
  * risk neutral: the expected value is maximised.

States of the dynamic programme: (contest, rerolls_left) before a contest, and
(contest, hits, rerolls_left) after a roll that fell short.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from ._numbers import DEFAULT_SUCCESS_PROBABILITY, Number, amount, binomial_pmf, count, probability

CONTESTS = 3
DICE = 3
MAX_REROLLS = 3


@dataclass(frozen=True)
class ArcheryPolicy:
    """What to do in each state of an archery visit.

    play[(contest, rerolls_left)]: take part in contest 1..3 (False: stop, keep pennies);
    reroll[(contest, hits, rerolls_left)]: after a roll short of `contest` hits, reroll
    one failed die (False: accept the loss).
    Missing states are read as True (play on, reroll when short).
    """

    play: dict = field(default_factory=dict)
    reroll: dict = field(default_factory=dict)


@dataclass(frozen=True)
class ArcheryPlan:
    """The optimal archery policy, its expected value (pennies times penny_value minus
    the expected failure cost) and its distribution of pennies won (exact)."""

    policy: ArcheryPolicy
    value: Number
    pennies: pd.DataFrame


def _check(p, rerolls, penny_value, failure_cost):
    return (probability(p), count(rerolls, "rerolls", 0, MAX_REROLLS),
            amount(penny_value, "penny_value"), amount(failure_cost, "failure_cost"))


def _solve(p, rerolls, penny_value, failure_cost, policy):
    """Backward induction. Returns the value at the start, the chosen policy, and the
    probability of ending with 0..3 pennies under it."""
    zero = p * 0
    play_choice, reroll_choice = {}, {}
    # start[(contest, r)] = (value to go, {pennies_won_from_here: probability})
    start = {(CONTESTS + 1, r): (zero, {0: zero + 1}) for r in range(rerolls + 1)}

    def won(contest, r_left):
        """Value and penny distribution after winning `contest` with r_left rerolls."""
        value, dist = start[(contest + 1, r_left)]
        return (penny_value + value, {k + 1: v for k, v in dist.items()})

    for contest in range(CONTESTS, 0, -1):
        for r in range(rerolls + 1):
            # short[(hits, r_left)]: a roll short of the target, built bottom-up in r_left.
            short = {}
            for r_left in range(r + 1):
                for hits in range(contest - 1, -1, -1):
                    give_up = (-failure_cost, {0: zero + 1})
                    options = [give_up]
                    if r_left > 0:
                        after_hit = (won(contest, r_left - 1) if hits + 1 >= contest
                                     else short[(hits + 1, r_left - 1)])
                        after_miss = short[(hits, r_left - 1)]
                        value = p * after_hit[0] + (1 - p) * after_miss[0]
                        dist = _mix(p, after_hit[1], after_miss[1])
                        options.append((value, dist))
                    if policy is None:
                        use = r_left > 0 and options[1][0] > give_up[0]
                    else:
                        use = r_left > 0 and policy.reroll.get((contest, hits, r_left), True)
                    reroll_choice[(contest, hits, r_left)] = use
                    short[(hits, r_left)] = options[1] if use else give_up
            value, dist = zero, {}
            for hits in range(DICE + 1):
                chance = binomial_pmf(DICE, hits, p)
                outcome = won(contest, r) if hits >= contest else short[(hits, r)]
                value += chance * outcome[0]
                for k, v in outcome[1].items():
                    dist[k] = dist.get(k, zero) + chance * v
            if policy is None:
                play = value > 0
            else:
                play = policy.play.get((contest, r), True)
            play_choice[(contest, r)] = play
            start[(contest, r)] = (value, dist) if play else (zero, {0: zero + 1})
    value, dist = start[(1, rerolls)]
    table = pd.DataFrame({"pennies": list(range(CONTESTS + 1)),
                          "probability": [dist.get(k, zero) for k in range(CONTESTS + 1)]})
    return value, ArcheryPolicy(play=play_choice, reroll=reroll_choice), table


def _mix(p, a: dict, b: dict) -> dict:
    out = {k: p * v for k, v in a.items()}
    for k, v in b.items():
        out[k] = out.get(k, p * 0) + (1 - p) * v
    return out


def archery_contest_table(p: object = DEFAULT_SUCCESS_PROBABILITY, rerolls: int = 0
                          ) -> pd.DataFrame:
    """Exact chances per contest for a player who always plays on and uses a reroll
    whenever a roll is short.

    Columns: contest, hits_needed, p_pass_fresh (pass with no reroll left),
    p_reach (reach the contest), p_win (win it), under that always-on policy.
    """
    p = probability(p)
    rerolls = count(rerolls, "rerolls", 0, MAX_REROLLS)
    _, _, pennies = _solve(p, rerolls, p * 0 + 1, p * 0, ArcheryPolicy())
    probs = list(pennies["probability"])
    rows = []
    for contest in range(1, CONTESTS + 1):
        fresh = sum((binomial_pmf(DICE, h, p) for h in range(contest, DICE + 1)), p * 0)
        reach = sum(probs[contest - 1:], p * 0)
        win = sum(probs[contest:], p * 0)
        rows.append({"contest": contest, "hits_needed": contest, "p_pass_fresh": fresh,
                     "p_reach": reach, "p_win": win})
    return pd.DataFrame(rows)


def optimal_archery(p: object = DEFAULT_SUCCESS_PROBABILITY, rerolls: int = 0,
                    penny_value: object = 1, failure_cost: object = 0) -> ArcheryPlan:
    """The best archery policy (when to play on, when to spend a reroll) and its value.

    Ties go to stopping / not rerolling; with failure_cost = 0 and p > 0 the optimum
    plays every contest and rerolls whenever a reroll can still help.
    """
    p, rerolls, penny_value, failure_cost = _check(p, rerolls, penny_value, failure_cost)
    value, policy, pennies = _solve(p, rerolls, penny_value, failure_cost, None)
    return ArcheryPlan(policy=policy, value=value, pennies=pennies)


def archery_policy_value(policy: ArcheryPolicy, p: object = DEFAULT_SUCCESS_PROBABILITY,
                         rerolls: int = 0, penny_value: object = 1,
                         failure_cost: object = 0) -> Number:
    """Exact expected value of `policy` (missing states: play on, reroll when short)."""
    if not isinstance(policy, ArcheryPolicy):
        raise ValueError(f"policy must be an ArcheryPolicy, got {type(policy).__name__}; "
                         f"build one with ArcheryPolicy(play={{...}}, reroll={{...}})")
    p, rerolls, penny_value, failure_cost = _check(p, rerolls, penny_value, failure_cost)
    return _solve(p, rerolls, penny_value, failure_cost, policy)[0]


def archery_penny_distribution(policy: ArcheryPolicy,
                               p: object = DEFAULT_SUCCESS_PROBABILITY, rerolls: int = 0
                               ) -> pd.DataFrame:
    """Exact distribution of pennies won (0..3) under `policy`."""
    p = probability(p)
    rerolls = count(rerolls, "rerolls", 0, MAX_REROLLS)
    return _solve(p, rerolls, p * 0 + 1, p * 0, policy)[2]
