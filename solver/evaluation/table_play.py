"""Strength at 3-4 seats and in teams, by play: a strategy in one seat against N-1
copies of a scripted player (teams: the strategy's pair against a scripted pair),
rotated over every seat, its share of rounds won against the fair share 1/N (1/2).

For trees too big to walk (Monte Carlo CFR on the printed decks), rounds are played in
the numba core (solver.players.kernels.play_table). A drawn round (the turn cap) counts
as 1/N of a win for every seat (1/2 for each team), so that the fair share is 1/N
whatever the draw rate. Every seat's share has a 95% normal interval over its rounds'
outcomes (each a win 1, a draw 1/N, a loss 0); the seat average has the interval of a
mean of independent seats. The exact counterpart for small trees is
solver.evaluation.table_strength.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pandas as pd

from game_def.core import rules_array
from game_def.variant import Variant
from solver.players import kernels as ka
from solver.players.agents import Agent, AgentError, bot
from solver.scripted import LEAGUE_NAMES

Z95 = 1.959963984540054
# Scripted players that play any table size: the baseline bots and the league players
# (each reads its own seat's knowledge and the public state only).
TABLE_OPPONENTS = ("uniform", "honest", "paranoid", "heuristic") + LEAGUE_NAMES


@dataclasses.dataclass(frozen=True)
class SeatResult:
    """The strategy's side in `seats` against `opponent`: rounds won, drawn, lost."""

    opponent: str
    seats: tuple
    rounds: int
    wins: int
    draws: int
    fair: float

    @property
    def share(self) -> float:
        return (self.wins + self.fair * self.draws) / self.rounds

    @property
    def variance(self) -> float:
        """Variance of one round's outcome (1, fair, 0)."""
        losses = self.rounds - self.wins - self.draws
        mean = self.share
        return (self.wins * (1 - mean) ** 2 + self.draws * (self.fair - mean) ** 2
                + losses * mean ** 2) / self.rounds

    @property
    def half_width(self) -> float:
        return Z95 * math.sqrt(self.variance / self.rounds)


@dataclasses.dataclass(frozen=True)
class TablePlay:
    """Every (opponent, seat) result of a strategy at one table."""

    variant: Variant
    strategy: str
    results: tuple

    @property
    def fair_share(self) -> float:
        return 0.5 if self.variant.teams else 1.0 / self.variant.players

    def rows(self) -> pd.DataFrame:
        """One row per (opponent, seat): share, its 95% interval, rounds, wins, draws."""
        return pd.DataFrame([{
            "opponent": r.opponent, "seat": "+".join(map(str, r.seats)),
            "win_share": r.share, "low": r.share - r.half_width,
            "high": r.share + r.half_width, "rounds": r.rounds, "wins": r.wins,
            "draws": r.draws} for r in self.results])

    def summary(self) -> pd.DataFrame:
        """Per opponent: the seat-averaged share with its 95% interval, the worst seat's
        share and lower bound, and whether the lower bounds beat the fair share (seat
        average; every seat)."""
        out = []
        for name in dict.fromkeys(r.opponent for r in self.results):
            mine = [r for r in self.results if r.opponent == name]
            share = float(np.mean([r.share for r in mine]))
            half = Z95 * math.sqrt(sum(r.variance / r.rounds for r in mine)) / len(mine)
            worst = min(mine, key=lambda r: r.share - r.half_width)
            out.append({"opponent": name, "win_share": share, "low": share - half,
                        "high": share + half, "worst_seat": "+".join(map(str, worst.seats)),
                        "worst_seat_low": worst.share - worst.half_width,
                        "fair_share": self.fair_share,
                        "beats_fair_share": share - half > self.fair_share,
                        "beats_fair_share_in_every_seat":
                            all(r.share - r.half_width > self.fair_share for r in mine)})
        return pd.DataFrame(out).set_index("opponent")

    def to_json(self) -> dict:
        return {"variant": str(self.variant), "strategy": self.strategy,
                "fair_share": self.fair_share, "method": "play",
                "rows": self.rows().to_dict(orient="records"),
                "summary": self.summary().reset_index().to_dict(orient="records")}


def seat_groups(variant: Variant) -> list[tuple]:
    """The seats the strategy takes in turn: each seat, or each team's pair."""
    if variant.teams:
        return [(0, 2), (1, 3)]
    return [(s,) for s in range(variant.players)]


def play_side(variant: Variant, strategy: Agent, opponent: Agent, seats: tuple,
              rounds: int, seed: int) -> SeatResult:
    """`rounds` rounds with the strategy in `seats` and the opponent everywhere else."""
    if rounds < 1:
        raise AgentError(f"rounds must be at least 1, got {rounds}")
    players = tuple(strategy.player(s) if s in seats else opponent.player(s)
                    for s in range(variant.players))
    tally = np.zeros(4 + variant.players, dtype=np.int64)
    hero = sum(1 << s for s in seats)
    ka.play_table(rules_array(variant), rounds, seed, players, hero, tally)
    fair = 0.5 if variant.teams else 1.0 / variant.players
    return SeatResult(opponent.name, tuple(seats), rounds, int(tally[0]), int(tally[1]),
                      fair)


def table_coverage(strategy: Agent, rounds: int = 2000, seed: int = 0) -> pd.DataFrame:
    """The strategy in every seat (self-play), `rounds` rounds: its decisions by kind and
    the share that landed on a learned table entry (at least the run's fine_visits
    updates), a thin one, or none: as tournaments count them at two seats
    (solver.evaluation.tournament.coverage_frame). Thin and missing entries are where the
    fallback rules move (docs/mccfr.md)."""
    from solver.evaluation.tournament import coverage_frame

    if rounds < 1:
        raise AgentError(f"rounds must be at least 1, got {rounds}")
    variant = strategy.variant
    players = tuple(strategy.player(s) for s in range(variant.players))
    tally = np.zeros(4 + variant.players, dtype=np.int64)
    coverage = np.zeros((ka.NUM_DECISION_KINDS, ka.NUM_COVERAGE), dtype=np.int64)
    ka.play_table_counted(rules_array(variant), rounds, seed, players,
                          (1 << variant.players) - 1, tally, coverage, strategy.min_visits)
    return coverage_frame(coverage)


def table_play(variant: Variant, strategy: Agent, opponents=TABLE_OPPONENTS,
               rounds: int = 2000, seed: int = 0, progress=None) -> TablePlay:
    """The strategy in every seat (pair) against copies of each opponent (names of
    TABLE_OPPONENTS or Agents), `rounds` rounds a seat, seeded per (opponent, seat)."""
    if strategy.variant is not None and strategy.variant != variant:
        raise AgentError(f"{strategy.name} was trained on {strategy.variant}, not {variant}")
    results = []
    for i, opponent in enumerate(opponents):
        agent = bot(opponent) if isinstance(opponent, str) else opponent
        for j, seats in enumerate(seat_groups(variant)):
            if progress is not None:
                progress(f"{strategy.name} in seat {'+'.join(map(str, seats))} against "
                         f"{agent.name}")
            results.append(play_side(variant, strategy, agent, seats, rounds,
                                     seed + 1000 * i + j))
    return TablePlay(variant, strategy.name, tuple(results))
