"""Head-to-head matches between two agents, in numba, both seats, with 95% intervals.

Each seat assignment plays `rounds` rounds (so 2 x rounds in all) on its own thread and
random stream; results are reproducible from the seed.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pandas as pd

from game_def.core import rules_array
from game_def.simulate import wilson_interval
from game_def.variant import Variant

from solver.jobs import in_both_seats
from solver.players import kernels as ka
from solver.players.agents import Agent, AgentError, seated

Z95 = 1.959964


@dataclasses.dataclass
class SeatResult:
    """Agent A in `seat` against agent B in the other seat."""

    seat: int
    rounds: int
    wins: int
    draws: int
    losses: int
    turn_cap_draws: int
    mean_turns: float

    @property
    def win_rate(self) -> float:
        return self.wins / self.rounds

    @property
    def value(self) -> float:
        """A's mean payoff (+1 win, -1 loss, 0 draw)."""
        return (self.wins - self.losses) / self.rounds

    def value_interval(self) -> tuple[float, float]:
        n = self.rounds
        mean = self.value
        second = (self.wins + self.losses) / n
        half = Z95 * math.sqrt(max(second - mean * mean, 0.0) / n)
        return mean - half, mean + half

    def row(self) -> dict:
        lo, hi = wilson_interval(self.wins, self.rounds)
        vlo, vhi = self.value_interval()
        return {"seat": self.seat, "rounds": self.rounds, "win_rate": self.win_rate,
                "win_lo": lo, "win_hi": hi, "draw_rate": self.draws / self.rounds,
                "loss_rate": self.losses / self.rounds, "value": self.value,
                "value_lo": vlo, "value_hi": vhi,
                "turn_cap_rate": self.turn_cap_draws / self.rounds,
                "mean_turns": self.mean_turns}


@dataclasses.dataclass
class HeadToHead:
    a: str
    b: str
    variant: Variant
    seats: tuple[SeatResult, SeatResult]
    seed: int
    coverage: np.ndarray = None   # [agent (0: A, 1: B), DK_*, COV_*] decisions, both seats

    def coverage_table(self, agent: int = 0) -> pd.DataFrame:
        """Agent A's (0) or B's (1) table decisions by kind: how many landed on a
        learned entry, a thin one, or none (played uniformly)."""
        return coverage_frame(self.coverage[agent])

    def table(self) -> pd.DataFrame:
        """One row per seat A played: win/draw/loss rates, A's value, 95% intervals."""
        frame = pd.DataFrame([s.row() for s in self.seats]).set_index("seat")
        frame.insert(0, "b", self.b)
        frame.insert(0, "a", self.a)
        return frame

    @property
    def value(self) -> float:
        """A's mean payoff over both seats."""
        return (self.seats[0].value + self.seats[1].value) / 2

    def to_json(self) -> dict:
        return {"a": self.a, "b": self.b, "variant": str(self.variant), "seed": self.seed,
                "value": self.value, "seats": [s.row() for s in self.seats]}


DECISION_KINDS = ("turn", "after peek", "respond", "power")


def coverage_frame(counts: np.ndarray) -> pd.DataFrame:
    """Coverage counts [DK_*, COV_*] as a table: decisions per kind and the share that
    landed on a learned entry, a thin one, or on no entry (played uniformly)."""
    rows = []
    for name, row in zip(DECISION_KINDS + ("all",),
                         list(counts) + [counts.sum(axis=0)]):
        total = int(row.sum())
        rows.append({"decision": name, "decisions": total,
                     "learned": row[ka.COV_LEARNED] / total if total else float("nan"),
                     "thin": row[ka.COV_THIN] / total if total else float("nan"),
                     "unlearned": row[ka.COV_NONE] / total if total else float("nan")})
    return pd.DataFrame(rows).set_index("decision")


def head_to_head(variant: Variant, a: Agent, b: Agent, rounds: int = 10_000, seed: int = 0,
                 workers: int = 2) -> HeadToHead:
    """A against B: `rounds` rounds with A in seat 0 and as many with A in seat 1."""
    if variant.players != 2 or variant.teams:
        raise AgentError("tournaments are for two-player variants")
    if rounds < 1:
        raise AgentError(f"rounds must be positive, got {rounds}")
    for agent in (a, b):
        if agent.variant is not None and agent.variant != variant:
            raise AgentError(f"agent {agent.name} was trained on {agent.variant}, not "
                             f"{variant}")
    rules = rules_array(variant)
    results = np.zeros((2, 4), dtype=np.int64)
    lengths = np.zeros((2, variant.max_turns + 1), dtype=np.int64)
    seeds = np.random.SeedSequence(seed).generate_state(2, dtype=np.uint32)

    coverage = np.zeros((2, 2, ka.NUM_DECISION_KINDS, ka.NUM_COVERAGE), dtype=np.int64)

    def play(seat: int) -> None:
        ka.play(rules, rounds, int(seeds[seat]), seat, seated(a, b, seat),
                max(a.min_visits, b.min_visits),
                ka.Tally(results[seat], lengths[seat], coverage[seat]))

    in_both_seats(play, workers)
    turns = np.arange(variant.max_turns + 1)
    seats = tuple(SeatResult(s, rounds, int(results[s, 0]), int(results[s, 1]),
                             int(results[s, 2]), int(results[s, 3]),
                             float((lengths[s] * turns).sum() / rounds)) for s in (0, 1))
    return HeadToHead(a.name, b.name, variant, seats, seed, coverage.sum(axis=0))
