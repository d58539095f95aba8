"""`python -m robin_des_bois audit` as a library call: the designer's balance page of
Robin des Bois, with the sections of `robinwood audit` where they apply, measured on
games stepped on the fast core (balance.play_counted) rather than solved exactly.

Sections (each a tidy table; robin_des_bois.audit_page writes the page, audit_words
its first screen, audit_band the band search):

- seats: the strongest player (balance.STRONGEST, the search) in every seat; each
  seat's win share (1 best alone, 1/k for k tied best: a draw among all counts 1/N)
  minus the fair share 1/N with a 95% interval (share_interval, Wilson's); the best-of-3 match odds
  (best_of_three), drawishness, duration, decisiveness and lead changes (Ludii's names);
- the skill ladder: a round robin of random, each scripted style and the search; the
  row player sits in one seat against copies of the column player, seat-rotated, and
  its win share is compared with 1/N (share_interval); a player against copies of itself is measured as
  any other cell (fresh games, a different seat each game), so it must come out at 1/N
  within its interval;
- what each mechanic is worth (restricted play, Jaffe et al., AIIDE 2012): the search
  in one seat, forbidden one kind of action (robin_des_bois.restrict), against free
  copies, seat-rotated. The free game's share is exactly 1/N (identical players,
  seats averaged), so the loss is 1/N minus the restricted share, with its interval.

Every game's seed derives from `seed` and the section and cell (job_seed): no seed
ever chose a player, and the same seed gives the same page. Jobs of a few games run on
`workers` processes; each finished job prints a progress line.
"""

from __future__ import annotations

import math
import time
import zlib
from typing import Any, Callable

import numpy as np
import pandas as pd

from common.stats import wilson_interval

from . import balance as B
from .restrict import RESTRICTIONS
from .rules import Rules

LADDER = ("random", "greedy_stasher", "defender", "thief", "search")
DEFAULT_GAMES = 24          # games with the search in every seat (the seats section)
SEARCH_CHUNK = 2            # games per job when a search player sits at the table
SCRIPTED_CHUNK = 30         # games per job of scripted players only

# Seats metrics in report order, Ludii's names where they mean the same.
SEAT_METRICS: dict[str, str] = {
    "starter_edge": "seat 0's win share minus the fair share 1/N (AdvantageP1 read "
                    "against the fair share)",
    "balance_gap": "largest gap between two seats' win shares (Ludii's Balance, as a "
                   "gap)",
    "starter_match_win": "the win share in a best-of-3 match (same seats every game; "
                         "most game wins takes it, ties split) of the player in seat 0",
    "drawishness": "share of games whose best score is shared",
    "duration": "turns a game lasts, mean",
    "decisiveness": "share of a game's turns gone when the outright winner takes the "
                    "score lead it keeps (games with an outright winner)",
    "lead_changes": "times the sole score leader becomes another seat, per game",
}


class AuditError(ValueError):
    """A setting the audit cannot take (one line)."""


def plan(games: int = DEFAULT_GAMES) -> dict[str, int]:
    """Sample sizes from one scale `games` (the seats section's games): ladder and
    restricted games are per seat of each cell; cells of scripted players only are
    cheap (about 0.1 s a game against a few seconds with the search) and get five
    times the search cells' games."""
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games < 4:
        raise AuditError(f"games must be a whole number of at least 4, got {games!r}")
    g = int(games)
    return {"seats": g, "ladder_search": max(2, g // 8),
            "ladder_scripted": max(10, 5 * (g // 8)), "restricted": max(2, g // 8)}


def job_seed(seed: int, *key: Any) -> int:
    """A game seed for one job, from the audit's seed and the job's name: independent
    streams for every section and cell, the same for the same seed."""
    tag = zlib.crc32("/".join(map(str, key)).encode())
    return int(np.random.SeedSequence([int(seed), tag]).generate_state(1)[0])


# ===== running games ========================================================================
def _play(job: tuple) -> dict[str, np.ndarray]:
    from .restrict import make
    from .rules import from_params

    params, names, games, seed = job
    return B.play_counted(from_params(params), list(names), games, seed, make=make)


def run_jobs(jobs: list[tuple], workers: int = 1, say: Callable | None = None,
             label: str = "games") -> list[dict[str, np.ndarray]]:
    """Each job (params, seat specs, games, seed) played by play_counted with
    restrict.make, on `workers` processes; results in job order."""
    say = say or (lambda line: None)
    total, done, games_done = len(jobs), 0, 0
    start = time.perf_counter()
    out: list = [None] * total

    def report(i, result):
        nonlocal done, games_done
        out[i] = result
        done += 1
        games_done += jobs[i][2]
        say(f"{label}: {done}/{total} jobs, {games_done} games, "
            f"{time.perf_counter() - start:.0f} s")

    if workers <= 1 or total <= 1:
        for i, job in enumerate(jobs):
            report(i, _play(job))
        return out
    from concurrent.futures import ProcessPoolExecutor, as_completed

    with ProcessPoolExecutor(max_workers=workers) as pool:
        futures = {pool.submit(_play, job): i for i, job in enumerate(jobs)}
        for f in as_completed(futures):
            report(futures[f], f.result())
    return out


def concat(results: list[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """One play_counted result from several."""
    return {key: np.concatenate([r[key] for r in results]) for key in results[0]}


def chunked(params: dict, names: list[str], games: int, seed: int, *key: Any) -> list:
    """Jobs playing `games` games of the seating `names`, a few games each."""
    size = SEARCH_CHUNK if any(n.startswith("search") for n in names) else SCRIPTED_CHUNK
    return [(params, tuple(names), min(size, games - start), job_seed(seed, *key, start))
            for start in range(0, games, size)]


# ===== figures from games ===================================================================
def normal(values: np.ndarray) -> tuple[float, float, float]:
    """(mean, lo, hi): mean +- 1.96 sample sd / sqrt(n)."""
    return B._normal(np.asarray(values, dtype=float))


def share_interval(shares: np.ndarray) -> tuple[float, float, float]:
    """(mean, lo, hi) of per-game win shares in [0, 1]: the Wilson score interval of
    their sum over the games. A share split by ties varies less than a win or a loss
    of the same mean, so the interval is conservative there; unlike the normal one it
    does not shrink to a point when a handful of games all went the same way."""
    shares = np.asarray(shares, dtype=float)
    lo, hi = wilson_interval(float(shares.sum()), len(shares))
    return float(shares.mean()), lo, hi


def best_of_three(shares: np.ndarray) -> float:
    """Seat 0's share of best-of-3 matches, exactly over the empirical distribution of
    game outcomes (rows of `shares`, games x seats) with games independent: a match is
    three games with the same seats; the seats with the most summed game shares take it
    (a tie splits it)."""
    outcomes, counts = np.unique(np.round(shares, 9), axis=0, return_counts=True)
    p = counts / counts.sum()
    u = len(outcomes)
    i, j, k = np.meshgrid(np.arange(u), np.arange(u), np.arange(u), indexing="ij")
    i, j, k = i.ravel(), j.ravel(), k.ravel()
    totals = outcomes[i] + outcomes[j] + outcomes[k]
    top = np.isclose(totals, totals.max(axis=1, keepdims=True))
    match = top / top.sum(axis=1, keepdims=True)
    return float((p[i] * p[j] * p[k] * match[:, 0]).sum())


def _bootstrap(shares: np.ndarray, stat: Callable, seed: int, draws: int = 200
               ) -> tuple[float, float]:
    """A 95% percentile bootstrap interval of stat(shares) over games."""
    rng = np.random.default_rng(seed)
    n = len(shares)
    values = [stat(shares[rng.integers(0, n, n)]) for _ in range(draws)]
    return float(np.percentile(values, 2.5)), float(np.percentile(values, 97.5))


def seat_tables(d: dict[str, np.ndarray], seed: int = 0) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(seats, metrics) of games with the same player in every seat: seats with
    minus_fair and its interval; metrics (metric, value, lo, hi, description): the
    SEAT_METRICS then balance's rates."""
    seats, rates = B.counted_figures(d)
    n = len(seats)
    fair = 1 / n
    shares = B._shares(d["scores"])
    for s in range(n):
        seats.loc[s, ["win_share", "lo", "hi"]] = share_interval(shares[:, s])
    seats.insert(2, "fair_share", fair)
    for col in ("win_share", "lo", "hi"):
        seats[f"{col}_minus_fair" if col == "win_share" else f"minus_fair_{col}"] = \
            seats[col] - fair
    won = shares.max(axis=1) == 1
    decided = d["lead_taken"][won] / np.maximum(d["turns"][won], 1)
    values = {
        "starter_edge": tuple(seats.loc[0, ["win_share_minus_fair", "minus_fair_lo",
                                            "minus_fair_hi"]]),
        "balance_gap": (float(seats["win_share"].max() - seats["win_share"].min()),
                        math.nan, math.nan),
        "starter_match_win": (best_of_three(shares),
                              *_bootstrap(shares, best_of_three, seed)),
        "drawishness": rates["tie_rate"],
        "duration": rates["mean_turns"],
        "decisiveness": normal(decided) if won.sum() > 1 else (math.nan,) * 3,
        "lead_changes": normal(d["lead_changes"]),
    }
    rows = [{"metric": m, "value": v[0], "lo": v[1], "hi": v[2],
             "description": SEAT_METRICS[m]} for m, v in values.items()]
    skip = {"first_player_advantage", "tie_rate", "mean_turns"}
    rows += [{"metric": m, "value": v[0], "lo": v[1], "hi": v[2],
              "description": B.METRICS[m]} for m, v in rates.items() if m not in skip]
    return seats, pd.DataFrame(rows)


def row_share(d: dict[str, np.ndarray], seat: np.ndarray) -> np.ndarray:
    """Per game, the win share of the player sitting in seat[g]."""
    shares = B._shares(d["scores"])
    return shares[np.arange(len(shares)), seat]


# ===== sections =============================================================================
def seats_section(rules: Rules, games: int, seed: int, workers: int = 1, say=None,
                  player: str = B.STRONGEST) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    """`player` in every seat for `games` games: (seats, metrics, the games)."""
    params = rules.to_params()
    jobs = chunked(params, [player] * rules.players, games, seed, "seats")
    d = concat(run_jobs(jobs, workers, say, "seats"))
    seats, metrics = seat_tables(d, seed)
    return seats, metrics, d


def ladder_jobs(rules: Rules, players, sizes: dict, seed: int) -> list[tuple]:
    """(row, column, seat, job) of every cell: the row player in `seat`, copies of the
    column player elsewhere; cells with the search get sizes['ladder_search'] games a
    seat, the others sizes['ladder_scripted']."""
    params, n = rules.to_params(), rules.players
    out = []
    for a in players:
        for b in players:
            per_seat = sizes["ladder_search" if "search" in (a, b) else "ladder_scripted"]
            for seat in range(n):
                names = [b] * n
                names[seat] = a
                for job in chunked(params, names, per_seat, seed, "ladder", a, b, seat):
                    out.append((a, b, seat, job))
    return out


def ladder_section(rules: Rules, players, sizes: dict, seed: int, workers: int = 1,
                   say=None) -> pd.DataFrame:
    """One row per (row, column): the row player's win share against copies of the
    column player, seat-rotated, with a 95% normal interval over the games, and the
    number of games."""
    cells = ladder_jobs(rules, players, sizes, seed)
    results = run_jobs([c[3] for c in cells], workers, say, "skill ladder")
    shares: dict[tuple[str, str], list] = {}
    for (a, b, seat, job), d in zip(cells, results):
        shares.setdefault((a, b), []).append(row_share(d, np.full(job[2], seat)))
    rows = []
    for (a, b), parts in shares.items():
        mean, lo, hi = share_interval(np.concatenate(parts))
        rows.append({"row": a, "column": b, "win_share": mean, "lo": lo, "hi": hi,
                     "fair_share": 1 / rules.players,
                     "games": int(sum(len(p) for p in parts))})
    return pd.DataFrame(rows)


def restricted_section(rules: Rules, per_seat: int, seed: int, workers: int = 1, say=None,
                       player: str = B.STRONGEST, restrictions=None) -> pd.DataFrame:
    """One row per restriction: the restricted seat's win share against free copies
    (seat-rotated), the loss 1/N - share and its interval, the games."""
    params, n = rules.to_params(), rules.players
    names = list(restrictions or RESTRICTIONS)
    cells = []
    for r in names:
        for seat in range(n):
            specs = [player] * n
            specs[seat] = f"{player}/{r}"
            for job in chunked(params, specs, per_seat, seed, "restricted", r, seat):
                cells.append((r, seat, job))
    results = run_jobs([c[2] for c in cells], workers, say, "restricted play")
    shares: dict[str, list] = {}
    for (r, seat, job), d in zip(cells, results):
        shares.setdefault(r, []).append(row_share(d, np.full(job[2], seat)))
    rows = []
    fair = 1 / n
    for r in names:
        mean, lo, hi = share_interval(np.concatenate(shares[r]))
        rows.append({"restriction": r, "forbids": RESTRICTIONS[r].words, "player": player,
                     "win_share": mean, "lo": lo, "hi": hi, "fair_share": fair,
                     "share_lost": fair - mean, "lost_lo": fair - hi, "lost_hi": fair - lo,
                     "games": int(sum(len(p) for p in shares[r]))})
    return pd.DataFrame(rows)


def skill_pays(ladder: pd.DataFrame) -> dict[str, Any]:
    """Each player's strength (mean win share against the others, the diagonal left
    out) and what the strongest gains head to head over the weakest and the median
    player, against the fair share."""
    off = ladder[ladder["row"] != ladder["column"]]
    strength = off.groupby("row", sort=False)["win_share"].mean().sort_values(
        ascending=False)
    best, worst = strength.index[0], strength.index[-1]
    median = strength.index[len(strength) // 2]
    cell = ladder.set_index(["row", "column"])
    fair = float(ladder["fair_share"].iloc[0])

    def over(b):
        row = cell.loc[(best, b)]
        return (float(row["win_share"]) - fair, float(row["lo"]) - fair,
                float(row["hi"]) - fair)
    return {"strength": strength, "strongest": best, "weakest": worst, "median": median,
            "over_weakest": over(worst), "over_median": over(median)}
