"""How strong a strategy is: every opponent the project can build, and what they gain.

A strategy's quality is what the strongest opponent found gets against it. `measure`
plays the strategy against the baseline bots and the league of scripted players
(solver.evaluation.league), and, when given a budget, trains an exploiter against it
(solver.evaluation.exploiter) and runs the local best response (solver.evaluation.lbr). Each opponent's *gain* is its seat-averaged
payoff against the strategy minus the strategy's own seat-averaged self-play payoff
(which is 0 for a two-player zero-sum round), with a 95% interval; every gain is a lower
bound on exploitability in expectation, and so is their maximum, the project's stated
lower bound (docs/mccfr.md, "How the strategy is measured"). Coverage counts say how
many of the strategy's decisions landed on a trained table entry, in self-play and
against each bot.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Callable

import numpy as np
import pandas as pd

from solver.players.agents import BOTS, Agent, bot
from solver.evaluation.exploiter import exploit
from solver.evaluation.lbr import local_best_response
from solver.evaluation.league import LEAGUE
from solver.evaluation.tournament import coverage_frame, head_to_head


@dataclasses.dataclass
class Opponent:
    """One opponent's result against the strategy."""

    name: str
    method: str            # bot, league, exploiter, local best response
    gain: float            # the opponent's seat-averaged payoff beyond self-play
    half_width: float      # 95%
    detail: str = ""

    def row(self) -> dict:
        return {"opponent": self.name, "method": self.method, "gain": self.gain,
                "gain_lo": self.gain - self.half_width, "gain_hi": self.gain + self.half_width,
                "detail": self.detail}


@dataclasses.dataclass
class StrengthReport:
    strategy: str
    variant: str
    rounds: int
    opponents: list[Opponent]
    coverage: dict[str, pd.DataFrame]   # "self-play" and each bot -> coverage_frame
    fallback: dict | None = None        # the Fallback's fields: who moves where the
                                        # table has not learned (None: uniform play)

    def table(self) -> pd.DataFrame:
        """One row per opponent, strongest first."""
        frame = pd.DataFrame([o.row() for o in self.opponents]).set_index("opponent")
        return frame.sort_values("gain", ascending=False)

    @property
    def strongest(self) -> Opponent:
        return max(self.opponents, key=lambda o: o.gain)

    @property
    def unlearned_self_play(self) -> float:
        """Share of the strategy's self-play decisions that found no table entry."""
        return float(self.coverage["self-play"].loc["all", "unlearned"])

    def to_json(self) -> dict:
        best = self.strongest
        return {"strategy": self.strategy, "fallback": self.fallback,
                "variant": self.variant, "rounds": self.rounds,
                "exploitability_lower_bound": best.gain,
                "exploitability_lower_bound_half_width": best.half_width,
                "strongest": best.name,
                "opponents": [o.row() for o in self.opponents],
                "coverage": {name: frame.reset_index().to_dict(orient="records")
                             for name, frame in self.coverage.items()}}


def _half(result) -> float:
    """95% half-width of a head-to-head's seat-averaged value (seats independent)."""
    halves = [(hi - lo) / 2 for lo, hi in (s.value_interval() for s in result.seats)]
    return math.sqrt(halves[0] ** 2 + halves[1] ** 2) / 2


# The local best response's continuations that `measure` tries: those after which it
# gained most against the one-hour strategy with its fallback rules (tempo 0.571, the
# strategy itself 0.531, baiter 0.448; counter 0.391 and the heuristic bot 0.088 on the
# 37k table: README, "The full game").
LBR_CONTINUATIONS = ("baiter", "tempo", "self")


def measure(strategy: Agent, *, rounds: int = 20_000, seed: int = 0,
            exploiter_seconds: float | None = None, exploiter_iterations: int | None = None,
            lbr_rounds: int = 0, lbr_continuations: tuple[str, ...] = LBR_CONTINUATIONS,
            say: Callable[[str], None] | None = None) -> StrengthReport:
    """Every opponent against `strategy` (a table agent) on its variant, `rounds` rounds
    in each seat; the exploiter trains for the given budget (skipped without one) and
    the local best response plays `lbr_rounds` rounds a seat (skipped at 0) once for
    each continuation in `lbr_continuations` (the player its seat becomes after the
    lookahead step: the LBR is as strong as its continuation allows, docs/lbr.md)."""
    say = say or (lambda text: None)
    variant = strategy.variant
    self_play = head_to_head(variant, strategy, strategy, rounds=rounds, seed=seed)
    # Seat-averaged self-play is 0 in expectation; its sample value enters each gain so
    # that gains are measured against the same baseline as the exploiter's.
    coverage = {"self-play": coverage_frame(self_play.coverage[0] + self_play.coverage[1])}
    opponents = []
    for method, names in (("bot", BOTS), ("league", LEAGUE)):
        for name in names:
            say(f"{strategy.name} against {name}")
            result = head_to_head(variant, strategy, bot(name), rounds=rounds, seed=seed + 1)
            if method == "bot":
                coverage[name] = coverage_frame(result.coverage[0])
            opponents.append(Opponent(name, method, -result.value, _half(result),
                                      f"{rounds:,} rounds a seat"))
    if exploiter_seconds or exploiter_iterations:
        say("training an exploiter in each seat")
        report = exploit(strategy, seconds=exploiter_seconds, iterations=exploiter_iterations,
                         rounds=rounds, seed=seed + 2)
        traversals = int(np.mean([s.iterations for s in report.seats]))
        opponents.append(Opponent("exploiter", "exploiter", report.gain, report.half_width,
                                  f"{traversals:,} traversals a seat"))
    for continuation in (lbr_continuations if lbr_rounds else ()):
        say(f"local best response in each seat, continuing as {continuation} "
            f"({lbr_rounds:,} rounds a seat)")
        report = local_best_response(strategy, rounds=lbr_rounds, seed=seed + 3,
                                     continuation=continuation)
        regenerations = report.to_json()["counters"]["regenerations"]
        opponents.append(Opponent(f"local best response ({continuation})",
                                  "local best response", report.gain, report.half_width,
                                  f"{lbr_rounds:,} rounds a seat, {report.particles} "
                                  f"particles, {regenerations} belief regenerations"))
    fallback = (dataclasses.asdict(strategy.fallback) if strategy.fallback is not None
                else None)
    return StrengthReport(strategy.name, str(variant), rounds, opponents, coverage, fallback)
