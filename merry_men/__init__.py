"""Exact dice decisions of "Robin Hood and the Merry Men".

What: for each dice situation of the rulebook (robbing the rich, the archery contest,
the jail break, fights at meeting places) the exact probability tables and the optimal
stop-or-continue / reroll policy, found by backward induction over the situation's few
states. Rational inputs (int, Fraction) give exact Fractions; floats give floats.

Why: these dice are the game's central risks; a player's questions ("rob a third
time?", "how many stones for level 3?", "how many dice at this guard?") have exact
answers once the success chance p of one die and the payoffs are fixed. The rulebook does
not say how many faces succeed, so p is a parameter (default 1/2, an assumption).
`merry_men.simulate` plays the same situations by Monte Carlo, independently, as a check.

    from fractions import Fraction
    import merry_men
    plan = merry_men.optimal_robbery(Fraction(1, 2), loot_value=1, miss_cost=1)
    plan.robberies, plan.value        # (2, Fraction(31, 32))

Every interpretation of the rules is named in docs/merry-men-dice.md.
"""

from __future__ import annotations

from ._numbers import DEFAULT_SUCCESS_PROBABILITY
from .archery import (ArcheryPlan, ArcheryPolicy, archery_contest_table,
                      archery_penny_distribution, archery_policy_value, optimal_archery)
from .fight import FightPlan, FightPolicy, fight_policy_outcome, fight_win_table, optimal_fight
from .jail_break import (JailBreakPlan, JailBreakPolicy, jail_break_policy_outcome,
                         jail_break_table, optimal_jail_break)
from .robbery import (RobberyPlan, optimal_robbery, policy_aiming_for, robbery_outcome_table,
                      robbery_policy_value, robbery_success_probability)

__all__ = [
    "DEFAULT_SUCCESS_PROBABILITY",
    "ArcheryPlan", "ArcheryPolicy", "archery_contest_table", "archery_penny_distribution",
    "archery_policy_value", "optimal_archery",
    "FightPlan", "FightPolicy", "fight_policy_outcome", "fight_win_table", "optimal_fight",
    "JailBreakPlan", "JailBreakPolicy", "jail_break_policy_outcome", "jail_break_table",
    "optimal_jail_break",
    "RobberyPlan", "optimal_robbery", "policy_aiming_for", "robbery_outcome_table",
    "robbery_policy_value", "robbery_success_probability",
]
