"""`robinwood audit VARIANT` as a library call (`analysis.audit(...)` in a notebook):
one designer's page on a variant's balance, exactly where its tree fits.

Sections (each its own module): the seats (analysis.seat_balance), what each mechanic
is worth by restricted play (analysis.restricted_play), the skill ladder
(analysis.skill_ladder); the first screen says, in sentences with numbers, who is
favoured, whether skill pays and which mechanic matters most and least
(analysis.audit_words). Written by analysis.audit_page.

Exact for two-player variants whose tree has up to MAX_NODES nodes (rspmx:max_turns=3
has 5.9 million); every other variant (the printed decks, 3-4 seats, teams) is audited
by Monte Carlo CFR and play (analysis.audit_sampled), with intervals instead of
brackets. `choose_method` decides which; the band search is sweep.band's.
"""

from __future__ import annotations

import dataclasses
import time

import pandas as pd

from game_def.errors import RobinWoodError, VariantError
from game_def.variant import Variant, parse

from .equilibrium import solve
from .restricted_play import restricted_play
from .seat_balance import seat_balance
from .skill_ladder import EQUILIBRIUM, LADDER, SkillLadder, player_strategies, skill_ladder

MAX_NODES = 20_000_000


class AuditError(RobinWoodError):
    """A variant or setting the audit cannot take (one line)."""


@dataclasses.dataclass(frozen=True)
class Audit:
    """Everything an audit measured, with how long each section took (seconds)."""

    variant: Variant
    seats: pd.DataFrame
    metrics: dict
    restricted: pd.DataFrame
    ladder: SkillLadder
    seconds: dict
    settings: dict
    method: str = "exact"   # or "sampled" (analysis.audit_sampled): intervals, not brackets


def choose_method(text: str, method: str = "auto") -> tuple[str, Variant]:
    """("exact" or "sampled", the variant): exact where check_variant takes it, else
    sampled; `method` "exact" or "sampled" insists (a variant the exact audit cannot
    take is then a one-line AuditError)."""
    if method not in ("auto", "exact", "sampled"):
        raise AuditError(f"method {method!r}: choose auto, exact or sampled")
    try:
        variant = parse(text)
    except VariantError as e:
        raise AuditError(str(e)) from None
    if variant.layout is not None:
        raise AuditError(f"{variant} fixes the deal (layout): the audit needs the "
                         f"random deal")
    if method == "sampled":
        return "sampled", variant
    try:
        return "exact", check_variant(text)
    except AuditError:
        if method == "exact":
            raise
        return "sampled", variant


def check_variant(text: str) -> Variant:
    """The variant, if the exact audit can take it; else a one-line AuditError."""
    from solver.exact.robinwood_tree import count_nodes

    try:
        variant = parse(text)
    except VariantError as e:
        raise AuditError(str(e)) from None
    if variant.players != 2 or variant.teams:
        raise AuditError(f"{variant} has {variant.players} players: the exact audit "
                         f"takes two-player variants; drop --method exact to audit it "
                         f"by Monte Carlo CFR")
    if variant.layout is not None:
        raise AuditError(f"{variant} fixes the deal (layout): the audit needs the "
                         f"random deal")
    if count_nodes(variant, MAX_NODES) < 0:
        raise AuditError(f"the game tree of {variant} has more than {MAX_NODES:,} nodes: "
                         f"too big for the exact audit; drop --method exact to audit it "
                         f"by Monte Carlo CFR, or pick a smaller deck, e.g. "
                         f"rspmx:max_turns=3")
    return variant


def audit(text: str, *, target: float = 1e-4, full_target: float = 1e-3,
          ladder=LADDER, restrictions=None, progress=None) -> Audit:
    """Audit a two-player variant exactly. `target`: exploitability of the solves on
    the position-symmetric tree (seats, most restrictions); `full_target`: on the full
    tree (the equilibrium in the skill ladder, restrictions that aim at positions).
    `ladder`: the scripted players of the round robin (the equilibrium joins them)."""
    from solver.exact.robinwood_tree import build_robinwood_tree

    if not (0 < target < 1 and 0 < full_target < 1):
        raise AuditError(f"targets must be between 0 and 1, got {target} and "
                         f"{full_target}")
    variant = check_variant(text)
    say = progress or (lambda line: None)
    seconds = {}
    t = time.perf_counter()
    say(f"{variant}: building the game trees")
    trees = {True: build_robinwood_tree(variant, symmetric=True),
             False: build_robinwood_tree(variant)}
    say(f"solving {variant} exactly (DCFR to exploitability {target:g} on the "
        f"symmetric tree, {full_target:g} on the full tree)")
    free = {True: solve(trees[True], target), False: solve(trees[False], full_target)}
    seats, metrics = seat_balance(variant, trees[True], free[True], symmetric=True)
    seconds["seats"] = time.perf_counter() - t
    t = time.perf_counter()
    targets = {True: target, False: full_target}
    restricted = restricted_play(variant, trees, free, targets, restrictions,
                                 progress=say)
    seconds["restricted_play"] = time.perf_counter() - t
    t = time.perf_counter()
    strategies = player_strategies(variant, trees[False], ladder,
                                   free[False].strategy, progress=say)
    table = skill_ladder(variant, trees[False], strategies, progress=say)
    seconds["skill_ladder"] = time.perf_counter() - t
    settings = {"target": target, "full_target": full_target,
                "ladder": list(ladder) + [EQUILIBRIUM],
                "nodes": trees[False].num_nodes, "symmetric_nodes": trees[True].num_nodes}
    return Audit(variant, seats, metrics, restricted, table, seconds, settings)
