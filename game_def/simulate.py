"""Random-play simulation of rounds and matches on the numba core, with rule statistics.

Uniformly random legal moves are no strategy anyone plays, but they exercise every rule
and give a baseline for how often each fires and how long a round lasts.
"""

from __future__ import annotations

import dataclasses
from typing import Callable

import numpy as np

from common.stats import wilson_interval  # also imported from here by sweep, solver, analysis

from . import _core as k
from ._jit import jit
from .core import rules_array
from .variant import Variant

# Rule counters, summed over all rounds.
COUNTERS = ("steps", "peeks", "silent_peeks", "announcements", "bluffs", "uses",
            "challenges",
            # one per event bit of the core, in bit order (game_def._core.EVENT_NAMES)
            "traitor_hits", "challenges_right", "challenges_wrong", "unmask_wins",
            "unmask_mistakes", "eliminations", "turn_cap_draws")
_C_STEPS, _C_PEEK, _C_SILENT, _C_ANNOUNCE, _C_BLUFF, _C_USE, _C_CHALLENGE = range(7)
_C_EVENTS = 7
assert len(COUNTERS) == _C_EVENTS + len(k.EVENT_NAMES)
MAX_MATCH_ROUNDS = 1000  # a match still undecided after this many rounds is a draw


@jit
def _play_round(rules, starter, counters, turn_hist, actions, probs):
    """Play one random round from `starter`; count rules fired and the round's length in
    turns; return (winner, ender)."""
    state = k._initial_state(rules)
    state[k.S_ACTOR] = starter
    n = rules[k.R_N]
    steps = 0
    while state[k.S_PHASE] != k.PH_TERMINAL:
        phase = state[k.S_PHASE]
        before = state[k.S_PEEK_POS]
        a = k._random_step(state, rules, actions, probs)
        steps += 1
        if phase == k.PH_TURN:
            if a < n:
                counters[_C_PEEK] += 1
            else:
                counters[_C_USE] += 1
        elif phase == k.PH_AFTER_PEEK:
            if a == 4 * n + k.A_SILENT:
                counters[_C_SILENT] += 1
            else:
                counters[_C_ANNOUNCE] += 1
                if state[k.S_CARD + before] != a - 4 * n - k.A_ANNOUNCE:
                    counters[_C_BLUFF] += 1
        elif phase == k.PH_RESPOND and a == 4 * n + k.A_CHALLENGE:
            counters[_C_CHALLENGE] += 1
        ev = state[k.S_EVENTS]
        for bit in range(len(k.EVENT_NAMES)):
            if (ev >> bit) & 1:
                counters[_C_EVENTS + bit] += 1
    counters[_C_STEPS] += steps
    turn_hist[state[k.S_TURN]] += 1
    return state[k.S_WINNER], state[k.S_ENDER]


@jit
def _next_starter(rules, starter, winner, ender):
    """Who starts the next round of a match (docs/rules.md "The match")."""
    players = rules[k.R_PLAYERS]
    if winner == k.DRAW:
        if players == 2:
            return 1 - starter
        return (ender + 1) % players
    if rules[k.R_TEAMS]:
        losing = 1 - winner % 2
        for step in range(1, players + 1):
            s = (ender + step) % players
            if s % 2 == losing:
                return s
    if players == 2:
        return 1 - winner
    return (ender + 1) % players


@jit
def _simulate_rounds(rules, count, winners_out, counters, turn_hist):
    """`count` independent rounds, each started by the variant's first player."""
    actions = np.empty(k.MAX_LEGAL, dtype=np.int64)
    probs = np.empty(k.MAX_CHANCE_OUTCOMES, dtype=np.float64)
    for i in range(count):
        w, e = _play_round(rules, rules[k.R_FIRST], counters, turn_hist, actions, probs)
        winners_out[i] = w


@jit
def _simulate_matches(rules, count, winners_out, counters, turn_hist):
    """`count` matches, first side to two round wins; writes each match's winner (a seat
    of the winning side, -1 if undecided after MAX_MATCH_ROUNDS rounds)."""
    actions = np.empty(k.MAX_LEGAL, dtype=np.int64)
    probs = np.empty(k.MAX_CHANCE_OUTCOMES, dtype=np.float64)
    wins = np.zeros(k.MAX_PLAYERS, dtype=np.int64)
    for i in range(count):
        wins[:] = 0
        starter = rules[k.R_FIRST]
        winner = k.DRAW
        rounds = 0
        while rounds < MAX_MATCH_ROUNDS:
            w, e = _play_round(rules, starter, counters, turn_hist, actions, probs)
            rounds += 1
            if w >= 0:
                side = w % 2 if rules[k.R_TEAMS] else w
                wins[side] += 1
                if wins[side] == 2:
                    winner = w
                    break
            starter = _next_starter(rules, starter, w, e)
        winners_out[i] = winner


def next_round_starter(variant: Variant, starter: int, winner: int, ender: int) -> int:
    """Seat that starts the next round of a match, given the last round's starter, winner
    (a seat, or -1 for a draw) and the seat whose turn ended it."""
    for name, seat in (("starter", starter), ("ender", ender)):
        if not 0 <= seat < variant.players:
            raise ValueError(f"{name} must be a seat from 0 to {variant.players - 1} (got {seat})")
    if not -1 <= winner < variant.players:
        raise ValueError(f"winner must be -1 (draw) or a seat (got {winner})")
    return int(_next_starter(rules_array(variant), starter, winner, ender))


# ----- summaries --------------------------------------------------------------------------
def _quantile_from_histogram(hist: np.ndarray, q: float) -> float:
    cumulative = np.cumsum(hist)
    return float(np.searchsorted(cumulative, q * cumulative[-1], side="left"))


@dataclasses.dataclass
class SimulationResult:
    """What a batch of random rounds (or matches) showed, ready to print or dump as JSON."""

    variant: str
    mode: str                     # "rounds" or "matches"
    count: int
    seed: int
    sides: list[str]              # "seat 0", ... or "team 0+2", "team 1+3"
    wins: list[int]
    draws: int
    turn_histogram: np.ndarray    # rounds by length in turns (index = turns)
    counters: dict[str, int]
    seconds: float = 0.0

    @property
    def rounds_played(self) -> int:
        return int(self.turn_histogram.sum())

    def win_rates(self) -> list[dict]:
        rows = []
        for side, w in zip(self.sides, self.wins):
            lo, hi = wilson_interval(w, self.count)
            rows.append({"side": side, "wins": w, "rate": w / self.count, "ci95": [lo, hi]})
        return rows

    def round_length(self) -> dict:
        hist = self.turn_histogram
        turns = np.arange(len(hist))
        quantiles = {f"q{int(q * 100):02d}": _quantile_from_histogram(hist, q)
                     for q in (0.05, 0.25, 0.5, 0.75, 0.95)}
        return {"mean": float((hist * turns).sum() / hist.sum()), **quantiles,
                "max": int(turns[hist > 0].max())}

    def to_json(self) -> dict:
        rounds = self.rounds_played
        lo, hi = wilson_interval(self.draws, self.count)
        return {
            "variant": self.variant,
            "mode": self.mode,
            "count": self.count,
            "rounds_played": rounds,
            "seed": self.seed,
            "win_rates": self.win_rates(),
            "draw_rate": {"draws": self.draws, "rate": self.draws / self.count,
                          "ci95": [lo, hi]},
            "round_length_turns": self.round_length(),
            "rules_fired": dict(self.counters),
            "rules_fired_per_round": {name: v / rounds for name, v in self.counters.items()},
            "seconds": self.seconds,
        }


def memory_bytes(variant: Variant, chunk: int = 20_000) -> int:
    """What `simulate` allocates, whatever the number of rounds: one chunk of winners
    and the round-length histogram (the kernels' own state is a few kilobytes)."""
    return 8 * (chunk + variant.max_turns + 1) + 64 * 1024


def simulate(variant: Variant, count: int, seed: int = 0, *, matches: bool = False,
             chunk: int = 20_000,
             progress: Callable[[int], None] | None = None) -> SimulationResult:
    """Play `count` random rounds (or first-to-two-wins matches) of `variant` from `seed`.

    Reproducible: the same variant, count, seed and mode give the same result, whatever
    the chunk size (one random stream, seeded once).
    """
    import time

    if count < 1:
        raise ValueError(f"count must be at least 1 (got {count})")
    if not 0 <= seed < 2**32:
        raise ValueError(f"seed must be from 0 to {2**32 - 1} (got {seed})")
    rules = rules_array(variant)
    counters = np.zeros(len(COUNTERS), dtype=np.int64)
    turn_hist = np.zeros(variant.max_turns + 1, dtype=np.int64)
    # One chunk's winners at a time: memory does not grow with `count`.
    winners = np.zeros(min(chunk, count), dtype=np.int64)
    if variant.teams:
        sides = ["team 0+2", "team 1+3"]
    else:
        sides = [f"seat {s}" for s in range(variant.players)]
    wins = [0] * len(sides)
    draws = 0
    kernel = _simulate_matches if matches else _simulate_rounds
    start = time.perf_counter()
    k._seed(seed)
    for lo in range(0, count, chunk):
        hi = min(lo + chunk, count)
        done = winners[:hi - lo]
        kernel(rules, hi - lo, done, counters, turn_hist)
        draws += int(np.sum(done < 0))
        for side in range(len(sides)):
            if variant.teams:
                wins[side] += int(np.sum((done >= 0) & (done % 2 == side)))
            else:
                wins[side] += int(np.sum(done == side))
        if progress:
            progress(hi - lo)
    seconds = time.perf_counter() - start
    return SimulationResult(
        variant=str(variant), mode="matches" if matches else "rounds", count=count,
        seed=seed, sides=sides, wins=wins, draws=draws,
        turn_histogram=turn_hist, counters={n: int(v) for n, v in zip(COUNTERS, counters)},
        seconds=seconds)
