"""Seat-rotated matches of Robin des Bois players on the fast core, with 95% intervals.

A match puts the candidate in one seat and copies of the opponent in the others, for
`games_per_seat` games in every seat. A game's win share for the candidate is 1/k when
it is among the k tied best scores (everyone tied: 1/n), else 0; the fair share is 1/n.
Intervals are normal: mean +- 1.96 * (sample standard deviation of the shares) /
sqrt(games), per seat; the seat average's standard error is sqrt(sum of the seats'
squared standard errors) / seats.

    from robin_des_bois.tournament import seat_rotated
    result = seat_rotated("search", "thief", players=4, games_per_seat=20)
    result.seat_average()   # (mean, low, high)
"""

from __future__ import annotations

import dataclasses
import math
import random
from typing import Any, Callable, Mapping

from . import _core as k
from .core import CoreState
from .players import make_player, view_of

Z95 = 1.959964


def normal_interval(share_sum: float, share_sq_sum: float, games: int,
                    z: float = Z95) -> tuple[float, float, float, float]:
    """(mean, standard error, low, high) of per-game shares from their sum and sum of
    squares: the sample variance (n - 1 divisor) over n, and mean -+ z * se."""
    if games < 2:
        raise ValueError(f"an interval needs at least 2 games, got {games}")
    mean = share_sum / games
    var = max(0.0, (share_sq_sum - games * mean * mean) / (games - 1))
    se = math.sqrt(var / games)
    return mean, se, mean - z * se, mean + z * se


def play_game(params: "Mapping[str, Any] | None", seats: list[Callable], seed: int) -> list[int]:
    """One game on the core with seats[p] choosing for player p; chance by the pile's
    odds from random.Random(seed). Returns the final scores."""
    state = CoreState.new(params)
    if len(seats) != state.rules.players:
        raise ValueError(f"{len(seats)} players given for a {state.rules.players}-player game")
    rng = random.Random(seed)
    s, rules_arr, counters = state._state, state._rules, state._counters
    while s[k.S_PHASE] != k.OVER:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            r = rng.random()
            card = outcomes[-1][0]
            for c, p in outcomes:
                r -= p
                if r < 0:
                    card = c
                    break
            k._apply_action(s, rules_arr, card, counters)
        else:
            view = view_of(state)
            action = seats[view.player](view)
            if action not in view.legal:
                raise ValueError(f"player {view.player} chose illegal action {action}")
            k._apply_action(s, rules_arr, int(action), counters)
    return state.scores()


def win_share(scores: list[int], seat: int) -> float:
    best = max(scores)
    if scores[seat] != best:
        return 0.0
    return 1.0 / scores.count(best)


@dataclasses.dataclass
class MatchResult:
    candidate: str
    opponent: str
    players: int
    games_per_seat: int
    share_sum: list[float]        # per seat
    share_sq_sum: list[float]     # per seat
    seconds: float = 0.0

    @property
    def fair(self) -> float:
        return 1.0 / self.players

    def seat(self, seat: int) -> tuple[float, float, float, float]:
        """(mean, se, low, high) of the candidate's share in this seat."""
        return normal_interval(self.share_sum[seat], self.share_sq_sum[seat],
                               self.games_per_seat)

    def seat_average(self) -> tuple[float, float, float, float]:
        rows = [self.seat(s) for s in range(self.players)]
        mean = sum(r[0] for r in rows) / self.players
        se = math.sqrt(sum(r[1] ** 2 for r in rows)) / self.players
        return mean, se, mean - Z95 * se, mean + Z95 * se

    def beats(self) -> bool:
        """Seat-averaged share above the fair share with 95% confidence."""
        return self.seat_average()[2] > self.fair

    def beats_every_seat(self) -> bool:
        return all(self.seat(s)[2] > self.fair for s in range(self.players))


def seat_rotated(candidate: str, opponent: str, players: int = 2, games_per_seat: int = 100,
                 seed: int = 0, params: "Mapping[str, Any] | None" = None,
                 samples: int = 32, factory: Callable[[str, int], Callable] | None = None
                 ) -> MatchResult:
    """The candidate in each seat against copies of the opponent in the others; game g
    of every seat uses the same deal seed (seed + g), so seats see the same cards."""
    import time

    make = factory or (lambda name, s: make_player(name, seed=s, samples=samples))
    params = {**(params or {}), "players": players}
    sums, sqs = [0.0] * players, [0.0] * players
    start = time.perf_counter()
    for seat in range(players):
        for g in range(games_per_seat):
            game_seed = seed + g
            seats = [make(candidate if p == seat else opponent, game_seed * 7 + p)
                     for p in range(players)]
            k._seed((game_seed * 31 + seat) % 2**32)
            share = win_share(play_game(params, seats, game_seed), seat)
            sums[seat] += share
            sqs[seat] += share * share
    return MatchResult(candidate, opponent, players, games_per_seat, sums, sqs,
                       time.perf_counter() - start)


def format_row(result: MatchResult) -> str:
    """`candidate vs opponent: seat shares [lo, hi] ... | average [lo, hi] verdict`."""
    cells = []
    for s in range(result.players):
        m, _, lo, hi = result.seat(s)
        cells.append(f"seat{s} {m:.3f} [{lo:.3f},{hi:.3f}]")
    m, _, lo, hi = result.seat_average()
    verdict = ("BEATS" if lo > result.fair else "loses" if hi < result.fair else "even?")
    return (f"{result.candidate:>14} vs {result.opponent:<14} " + "  ".join(cells)
            + f"  | avg {m:.3f} [{lo:.3f},{hi:.3f}] fair {result.fair:.3f} {verdict}")
