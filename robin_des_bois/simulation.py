"""Random-play simulation of Robin des Bois on the numba core, with rule statistics.

Uniformly random legal moves (chance by the pile's odds) are no strategy anyone plays,
but they exercise every rule and give a designer a baseline: the first player's
advantage, how often stealing, countering and the hand limit happen, how long a game
lasts, how far apart the scores end.

    import robin_des_bois
    result = robin_des_bois.simulate({"players": 3}, games=10_000, seed=1)
    result.win_rates()      # per seat, with 95% intervals
    result.to_json()
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any, Mapping

import numpy as np

from common.stats import wilson_interval

from . import _core as k
from .core import compile_rules
from .rules import Rules

# Rule counters, summed over all games (index = _core.C_*).
COUNTERS: tuple[str, ...] = k.COUNTER_NAMES
MAX_GAMES = 10**9
_CHUNK = 50_000


@dataclasses.dataclass
class SimulationResult:
    """What a batch of random games showed (sums; the methods give rates and means)."""

    params: dict[str, Any]        # the canonical game parameters played
    games: int
    seed: int
    wins: list[int]               # per seat: alone with the best score
    shared_wins: list[int]        # per seat: tied for best with some, not all
    all_tied: int                 # games where every score was equal
    mean_return: list[float]      # per seat: mean utility (zero-sum ranking, I22)
    mean_score: list[float]       # per seat: mean final score (treasures + gold)
    mean_spread: float            # mean best minus worst score
    mean_margin: float            # mean best minus second best (0 when tied for best)
    turn_histogram: np.ndarray    # games by length in turns (index = turns)
    counters: dict[str, int]      # rule counters summed over all games (COUNTERS)
    seconds: float = 0.0

    @property
    def players(self) -> int:
        return len(self.wins)

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds > 0 else float("inf")

    def win_rates(self) -> list[dict]:
        """Per seat: outright wins, their rate and 95% Wilson interval, shared wins."""
        rows = []
        for seat, (w, s) in enumerate(zip(self.wins, self.shared_wins)):
            lo, hi = wilson_interval(w, self.games)
            rows.append({"seat": seat, "wins": w, "rate": w / self.games,
                         "ci95": [lo, hi], "shared_wins": s,
                         "mean_return": self.mean_return[seat],
                         "mean_score": self.mean_score[seat]})
        return rows

    def game_length(self) -> dict:
        hist = self.turn_histogram
        turns = np.arange(len(hist))
        cumulative = np.cumsum(hist)
        quantiles = {f"q{int(q * 100):02d}": int(np.searchsorted(
            cumulative, q * cumulative[-1], side="left")) for q in (0.05, 0.5, 0.95)}
        return {"mean_turns": float((hist * turns).sum() / hist.sum()), **quantiles,
                "max_turns": int(turns[hist > 0].max()),
                "mean_moves": self.counters["moves"] / self.games}

    def per_game(self) -> dict[str, float]:
        """Each rule counter divided by the number of games."""
        return {name: v / self.games for name, v in self.counters.items()}

    def to_json(self) -> dict:
        return {
            "params": dict(self.params), "games": self.games, "seed": self.seed,
            "win_rates": self.win_rates(),
            "all_tied": {"games": self.all_tied, "rate": self.all_tied / self.games},
            "mean_spread": self.mean_spread, "mean_margin": self.mean_margin,
            "game_length": self.game_length(),
            "counters": dict(self.counters), "per_game": self.per_game(),
            "seconds": self.seconds,
        }


def simulate(params: "Mapping[str, Any] | Rules | None" = None, games: int = 1000,
             seed: int = 0) -> SimulationResult:
    """Play `games` uniformly random games of Robin des Bois on the numba core.

    params: OpenSpiel game parameters (missing keys take rules.PARAMETER_DEFAULTS), a
    Rules, or None for the defaults. Reproducible: the same params, games and seed give
    the same result. Raises ValueError (RulesError for bad parameters) with one line.
    """
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)):
        raise ValueError(f"games must be an integer, got {games!r}")
    if not 1 <= games <= MAX_GAMES:
        raise ValueError(f"games must be from 1 to {MAX_GAMES} (got {games})")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise ValueError(f"seed must be an integer, got {seed!r}")
    if not 0 <= seed < 2**32:
        raise ValueError(f"seed must be from 0 to {2**32 - 1} (got {seed})")
    rules, arr = compile_rules(params)
    n = rules.players
    counters = np.zeros(k.NUM_COUNTERS, dtype=np.int64)
    wins = np.zeros(k.MAX_PLAYERS, dtype=np.int64)
    shared = np.zeros(k.MAX_PLAYERS, dtype=np.int64)
    all_tied = np.zeros(1, dtype=np.int64)
    return_sum = np.zeros(k.MAX_PLAYERS, dtype=np.float64)
    score_sum = np.zeros(k.MAX_PLAYERS, dtype=np.int64)
    spread = np.zeros(1, dtype=np.int64)
    margin = np.zeros(1, dtype=np.int64)
    # every turn turns at least one card, and both piles hold at most all the cards
    turn_hist = np.zeros(2 * rules.num_cards + 2, dtype=np.int64)
    start = time.perf_counter()
    k._seed(int(seed))
    for lo in range(0, int(games), _CHUNK):   # one random stream: chunking changes nothing
        k._simulate(arr, min(_CHUNK, int(games) - lo), counters, wins, shared, all_tied,
                    return_sum, score_sum, spread, margin, turn_hist)
    seconds = time.perf_counter() - start
    g = int(games)
    return SimulationResult(
        params=rules.to_params(), games=g, seed=int(seed),
        wins=[int(x) for x in wins[:n]], shared_wins=[int(x) for x in shared[:n]],
        all_tied=int(all_tied[0]),
        mean_return=[float(x) / g for x in return_sum[:n]],
        mean_score=[float(x) / g for x in score_sum[:n]],
        mean_spread=float(spread[0]) / g, mean_margin=float(margin[0]) / g,
        turn_histogram=turn_hist,
        counters={name: int(v) for name, v in zip(COUNTERS, counters)}, seconds=seconds)
