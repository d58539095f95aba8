"""Balance figures of Robin des Bois for designers: first-player advantage, score spread,
game length, how often players take, stash, steal (unstoppable or counterable), counter
and rob, how often Marianne protects, and the effect of each box-content parameter.

    from robin_des_bois.balance import balance, sweep, effects
    result = balance({"players": 4}, games=100, seed=1)           # the search in every seat
    result.seats, result.metrics                                   # pandas DataFrames
    balance(None, games=20_000, seed=1, players="random")         # random moves, when asked
    sweep({"players": [3, 4], "copies": [3, 4]}, None, 40, 1)      # tidy rows
    effects({"players": [4, 5]}, None, 40, 1)                      # change vs the defaults

Good play by default: `players` defaults to STRONGEST, the strongest player measured at
the box (the determinized search, which beats every scripted player seat-rotated:
benchmarks/results/robin_des_bois_players.txt); uniformly random moves only when asked
(`players="random"`), and every result says which players produced it.

Two ways to play (docs/robin-des-bois-rules.md, "Balance for designers"):

* `players="random"`: the numba core's batch simulator (`robin_des_bois.simulate`), run
  in BATCHES independent batches (seeds derived from `seed`); every interval is a
  batch-means interval (t quantile, BATCHES - 1 degrees of freedom), so no distribution
  is assumed for the per-game counts. Marianne's protections are not among the core's
  counters: they are counted on `marianne_games` extra random games stepped from Python
  on the same core (normal interval over games).
* a scripted player name (`players.SCRIPTED`: random, greedy_stasher, thief, defender,
  or `search`): every seat is that player, each game stepped from Python on the fast
  core as in `tournament.play_game` (a few hundred games a second for scripted players,
  so use fewer games); intervals are normal over the games (mean +- 1.96 sd / sqrt(n)).

A seat's win share in a game is 1 (best alone), 1/k (tied best with k-1 others), else
0, as in the tournament; the fair share is 1/players and the first-player advantage is
seat 0's share minus it. Marianne is not a rules parameter (rules.PARAMETER_DEFAULTS has
no switch for her), so her effect is not measured by turning her off: `marianne_effect`
says so, and the report gives how often she protected someone instead.
"""

from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass, field
from typing import Any, Mapping

import numpy as np
import pandas as pd

from .rules import PARAMETER_DEFAULTS, Rules, RulesError, from_params

Z95 = 1.959964
BATCHES = 20
MAX_GAMES = 10**8

# (metric, what it is), in report order; seats add win_share_seat<i> rows.
METRICS: dict[str, str] = {
    "first_player_advantage": "seat 0's win share minus the fair share 1/players",
    "tie_rate": "share of games whose best score is shared",
    "mean_spread": "best minus worst final score, mean",
    "mean_margin": "best minus second best score, mean (0 when tied)",
    "mean_turns": "turns per game, mean",
    "takes": "takes per game (one or two cards)",
    "take_two": "takes of two cards per game",
    "stashes": "stashes (runs laid) per game",
    "gold_taken": "gold cards taken per game",
    "steals": "steals (sets laid) per game",
    "unstoppable": "steals with three colours (cannot be countered) per game",
    "counterable": "steals with a repeated colour (victim may counter) per game",
    "counters": "counters played per game",
    "thefts": "successful thefts per game",
    "marianne_protections": "steals at which Marianne kept her holder's face-up "
                            "treasures out of reach, per game",
    "safe_triples": "three face-up treasures of a colour turned safe, per game",
    "hand_limit_discards": "cards discarded to the hand limit per game",
}
HEADLINE = ("first_player_advantage", "mean_spread", "mean_turns", "steals", "unstoppable",
            "counterable", "counters", "thefts", "marianne_protections")

# The strongest player measured at the box: the search beats every scripted player,
# seat-rotated, at 3 to 6 players (benchmarks/bench_robin_des_bois_players.py; docs/
# robin-des-bois-rules.md, "Players and strength"). The balance figures use it in every
# seat unless another player is asked for.
STRONGEST = "search"

# One-at-a-time variations around the published box (each valid with its other
# options): the player counts it seats, 3 copies, no money, the money taken lowest
# first (B1), the seed's end (as soon as the second pile is empty, B3). Kept short: with
# the search in every seat a variant costs about a second a game.
EFFECT_GRID: dict[str, list] = {
    "players": [4, 5, 6],
    "copies": [3],
    "gold": ["none"],
    "gold_order": ["low"],
    "end": ["pile"],
}
# A small full-grid sweep for the report: the fewest and most players, two copy counts
# (every player count with both: reports/sweep-robin-des-bois, the sweep package).
SWEEP_GRID: dict[str, list] = {"players": [3, 6], "copies": [3, 4]}


class BalanceError(ValueError):
    """Bad input to the balance tools; the message is one line."""


# ===== results =============================================================================
@dataclass
class BalanceResult:
    """What a batch of games showed, as tidy DataFrames.

    seats: one row per seat (seat, win_share, lo, hi, outright_win_rate, mean_score).
    metrics: one row per metric (metric, value, lo, hi, description), METRICS order.
    """

    params: dict[str, Any]
    players: str
    games: int
    seed: int
    method: str
    seats: pd.DataFrame
    metrics: pd.DataFrame
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def num_players(self) -> int:
        return len(self.seats)

    def value(self, metric: str) -> float:
        return float(self.metrics.set_index("metric").at[metric, "value"])

    def interval(self, metric: str) -> tuple[float, float]:
        row = self.metrics.set_index("metric").loc[metric]
        return float(row["lo"]), float(row["hi"])

    def tidy(self) -> pd.DataFrame:
        """(metric, value, lo, hi): the seats' win shares then the metrics."""
        seats = pd.DataFrame({"metric": [f"win_share_seat{s}" for s in self.seats["seat"]],
                              "value": self.seats["win_share"], "lo": self.seats["lo"],
                              "hi": self.seats["hi"]})
        return pd.concat([seats, self.metrics[["metric", "value", "lo", "hi"]]],
                         ignore_index=True)


def _check_games(games: Any, low: int = 2) -> int:
    if isinstance(games, bool) or not isinstance(games, (int, np.integer)):
        raise BalanceError(f"games must be an integer, got {games!r}")
    if not low <= games <= MAX_GAMES:
        raise BalanceError(f"games must be from {low} to {MAX_GAMES} (got {games})")
    return int(games)


def _check_seed(seed: Any) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise BalanceError(f"seed must be an integer, got {seed!r}")
    if not 0 <= seed < 2**32:
        raise BalanceError(f"seed must be from 0 to {2**32 - 1} (got {seed})")
    return int(seed)


def _check_players(players: Any) -> str:
    from .players import SCRIPTED

    names = list(SCRIPTED) + ["search"]
    if players not in names:
        raise BalanceError(f"unknown player {players!r}: use one of {', '.join(names)}")
    return players


def _rules(params: "Mapping[str, Any] | Rules | None") -> Rules:
    if params is None:
        return from_params({})
    if isinstance(params, Rules):
        return params
    if not isinstance(params, Mapping):
        raise BalanceError(f"params must be a dict of game parameters, got "
                           f"{type(params).__name__}")
    return from_params(params)     # RulesError (a ValueError) with one line


def _frame(values: dict[str, tuple[float, float, float]]) -> pd.DataFrame:
    rows = [{"metric": m, "value": values[m][0], "lo": values[m][1], "hi": values[m][2],
             "description": METRICS[m]} for m in METRICS if m in values]
    return pd.DataFrame(rows, columns=["metric", "value", "lo", "hi", "description"])


def _normal(per_game: np.ndarray) -> tuple[float, float, float]:
    """(mean, lo, hi): mean +- 1.96 sample sd / sqrt(n)."""
    n = len(per_game)
    mean = float(per_game.mean())
    se = float(per_game.std(ddof=1)) / math.sqrt(n) if n > 1 else float("inf")
    return mean, mean - Z95 * se, mean + Z95 * se


def _shares(scores: np.ndarray) -> np.ndarray:
    """Per game and seat: 1/k for the k tied best, else 0."""
    best = scores.max(axis=1, keepdims=True)
    top = scores == best
    return top / top.sum(axis=1, keepdims=True)


# ===== random play on the batch simulator ==================================================
def _batch_metrics(r) -> tuple[np.ndarray, dict[str, float], np.ndarray, np.ndarray]:
    """From one SimulationResult: per-seat share, metric means, outright rate, score."""
    n, g = r.players, r.games
    share = (np.asarray(r.mean_return) * (n - 1) + 1) / n     # affine in the utility (I22)
    c = r.per_game()
    hist = r.turn_histogram
    tied_best = (g - sum(r.wins)) / g
    m = {"first_player_advantage": share[0] - 1 / n, "tie_rate": tied_best,
         "mean_spread": r.mean_spread, "mean_margin": r.mean_margin,
         "mean_turns": float((hist * np.arange(len(hist))).sum()) / g,
         "takes": c["take_one"] + c["take_two"], "take_two": c["take_two"],
         "stashes": c["stashes"], "gold_taken": c["gold_taken"], "steals": c["steals"],
         "unstoppable": c["unstoppable"], "counterable": c["counterable"],
         "counters": c["counters"], "thefts": c["thefts"],
         "safe_triples": c["safe_triples"], "hand_limit_discards": c["hand_limit_discards"]}
    return share, m, np.asarray(r.wins) / g, np.asarray(r.mean_score)


def _random_on_core(rules: Rules, games: int, seed: int
                    ) -> tuple[pd.DataFrame, dict[str, tuple[float, float, float]]]:
    from scipy import stats

    from .simulation import simulate

    batches = min(BATCHES, games)
    sizes = [games // batches + (1 if b < games % batches else 0) for b in range(batches)]
    seeds = np.random.SeedSequence(seed).generate_state(batches)
    out = [_batch_metrics(simulate(rules, size, int(s))) for size, s in zip(sizes, seeds)]
    w = np.asarray(sizes, dtype=float) / games
    t = float(stats.t.ppf(0.975, batches - 1))

    def summary(values: np.ndarray) -> tuple[float, float, float]:
        mean = float((w * values).sum())
        se = float(values.std(ddof=1)) / math.sqrt(batches)
        return mean, mean - t * se, mean + t * se

    shares = np.array([o[0] for o in out])
    seats = []
    for s in range(rules.players):
        mean, lo, hi = summary(shares[:, s])
        seats.append({"seat": s, "win_share": mean, "lo": lo, "hi": hi,
                      "outright_win_rate": float((w * np.array([o[2][s] for o in out])).sum()),
                      "mean_score": float((w * np.array([o[3][s] for o in out])).sum())})
    metrics = {m: summary(np.array([o[1][m] for o in out])) for m in out[0][1]}
    return pd.DataFrame(seats), metrics


# ===== games stepped from Python (scripted players, Marianne) ==============================
def play_counted(rules: Rules, names: list[str], games: int, seed: int,
                 make=None) -> dict[str, np.ndarray]:
    """`games` games on the core stepped from Python, seats[p] = make(names[p], seed=...)
    (default players.make_player; the audit passes one that also builds restricted
    players), chance by the pile's odds (as tournament.play_game). Per game: scores
    (games x n) and every rule counter, turns, Marianne protections, and the lead
    (arrays of length games): `lead_taken`, the turn (1 = the first) at which the
    outright winner took the score lead it kept to the end (0 when the best score is
    shared), and `lead_changes`, how often the sole score leader became another seat
    (passing through a tie counts once). Scores are read after every move."""
    import random

    from . import _core as k
    from .core import CoreState
    from .players import make_player, view_of

    make = make_player if make is None else make
    n = rules.players
    scores = np.zeros((games, n), dtype=np.int64)
    counters = np.zeros((games, k.NUM_COUNTERS), dtype=np.int64)
    protections = np.zeros(games, dtype=np.int64)
    lead_taken = np.zeros(games, dtype=np.int64)
    lead_changes = np.zeros(games, dtype=np.int64)
    now = np.empty(k.MAX_PLAYERS, dtype=np.int64)
    for g in range(games):
        game_seed = (seed * 1_000_003 + g) % 2**32
        k._seed(game_seed)                         # the search player's numba draws
        rng = random.Random(game_seed)
        seats = [make(names[p], seed=game_seed * 7 + p) for p in range(n)]
        state = CoreState.new(rules)
        s, arr, cnt = state._state, state._rules, state._counters
        leader, last, since = -1, -1, 0
        while s[k.S_PHASE] != k.OVER:
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                x = rng.random()
                card = outcomes[-1][0]
                for c, p in outcomes:
                    x -= p
                    if x < 0:
                        card = c
                        break
                k._apply_action(s, arr, card, cnt)
                continue
            if s[k.S_PHASE] == k.TARGET:           # a steal chooses its victim (I14)
                holder = int(s[k.S_MARIANNE])
                if holder >= 0 and holder != s[k.S_TURN] and s[k.S_OPEN_TOTAL + holder] > 0:
                    protections[g] += 1
            view = view_of(state)
            action = seats[view.player](view)
            if action not in view.legal:
                raise RuntimeError(f"player {names[view.player]} chose illegal action "
                                   f"{action}")
            k._apply_action(s, arr, int(action), cnt)
            k._scores(s, arr, now)
            top = now[:n].max()
            who = int(np.argmax(now[:n])) if (now[:n] == top).sum() == 1 else -1
            if who != leader:
                since = int(cnt[k.C_TAKE_ONE] + cnt[k.C_TAKE_TWO])
                if who >= 0 and last >= 0 and who != last:
                    lead_changes[g] += 1
                leader, last = who, (who if who >= 0 else last)
        scores[g] = state.scores()
        counters[g] = cnt
        lead_taken[g] = max(since, 1) if leader >= 0 else 0
    out = {name: counters[:, i] for i, name in enumerate(k.COUNTER_NAMES)}
    out["scores"] = scores
    out["turns"] = out["take_one"] + out["take_two"]
    out["marianne_protections"] = protections
    out["lead_taken"] = lead_taken
    out["lead_changes"] = lead_changes
    return out


def _stepped(rules: Rules, player: str, games: int, seed: int
             ) -> tuple[pd.DataFrame, dict[str, tuple[float, float, float]]]:
    return counted_figures(play_counted(rules, [player] * rules.players, games, seed))


def counted_figures(d: dict[str, np.ndarray]
                    ) -> tuple[pd.DataFrame, dict[str, tuple[float, float, float]]]:
    """The seats frame and the metrics' (mean, lo, hi) of `play_counted`'s games (every
    seat the same player; normal intervals over the games)."""
    scores = d["scores"]
    n = scores.shape[1]
    shares = _shares(scores)
    seats = []
    for s in range(n):
        mean, lo, hi = _normal(shares[:, s])
        seats.append({"seat": s, "win_share": mean, "lo": lo, "hi": hi,
                      "outright_win_rate": float((shares[:, s] == 1).mean()),
                      "mean_score": float(scores[:, s].mean())})
    srt = np.sort(scores, axis=1)
    per_game = {
        "first_player_advantage": shares[:, 0] - 1 / n,
        "tie_rate": (shares.max(axis=1) < 1).astype(float),
        "mean_spread": srt[:, -1] - srt[:, 0], "mean_margin": srt[:, -1] - srt[:, -2],
        "mean_turns": d["turns"], "takes": d["turns"], "take_two": d["take_two"]}
    for m in ("stashes", "gold_taken", "steals", "unstoppable", "counterable", "counters",
              "thefts", "marianne_protections", "safe_triples", "hand_limit_discards"):
        per_game[m] = d[m]
    metrics = {m: _normal(np.asarray(v, dtype=float)) for m, v in per_game.items()}
    return pd.DataFrame(seats), metrics


# ===== the public API =======================================================================
def balance(params: "Mapping[str, Any] | Rules | None" = None, games: int = 200,
            seed: int = 0, players: str = STRONGEST,
            marianne_games: int | None = None) -> BalanceResult:
    """Balance figures for `games` games with `players` in every seat (default the
    strongest measured player, STRONGEST).

    players="random" (only when asked) plays uniformly random moves on the batch
    simulator (fast), and its method says so; marianne_games (default
    min(games, 2000); 0 = skip) random games are stepped from Python to count Marianne's
    protections. Any other name (players.SCRIPTED or "search") steps every game from
    Python. Raises a one-line ValueError (RulesError for bad parameters)."""
    rules = _rules(params)
    games = _check_games(games)
    seed = _check_seed(seed)
    player = _check_players(players)
    start = time.perf_counter()
    notes = []
    if player == "random":
        seats, metrics = _random_on_core(rules, games, seed)
        mg = min(games, 2000) if marianne_games is None else marianne_games
        if mg:
            mg = _check_games(mg)
            d = play_counted(rules, ["random"] * rules.players, mg, seed ^ 0x5EED)
            metrics["marianne_protections"] = _normal(d["marianne_protections"].astype(float))
            notes.append(f"Marianne's protections counted on {mg:,} further random games "
                         f"stepped from Python (normal interval).")
        else:
            notes.append("Marianne's protections not counted (marianne_games=0).")
        method = (f"uniformly random moves in every seat (random play, asked for: a "
                  f"baseline of the rules, not good play) on the numba core, {games:,} "
                  f"games in {min(BATCHES, games)} batches; 95% batch-means intervals (t)")
    else:
        seats, metrics = _stepped(rules, player, games, seed)
        method = (f"every seat plays {player}, {games:,} games stepped from Python on the "
                  f"fast core; 95% normal intervals over games")
    return BalanceResult(params=rules.to_params(), players=player, games=games, seed=seed,
                         method=method, seats=seats, metrics=_frame(metrics), notes=notes,
                         seconds=time.perf_counter() - start)


def marianne_effect(params=None, games: int = 200, seed: int = 0,
                    players: str = STRONGEST) -> dict[str, Any]:
    """Marianne's rule on and off, if the rules had a switch: they do not, so this says
    so (available=False, a note) and measures nothing; how often she protects someone
    is the metric `marianne_protections` of `balance`."""
    switches = [p for p in PARAMETER_DEFAULTS if "marianne" in p.lower()]
    if not switches:
        return {"available": False,
                "note": "Marianne is not a parameter: rules.PARAMETER_DEFAULTS has no "
                        "switch for her rule, so her effect is not measured on/off; "
                        "the report counts how often she protects a holder instead."}
    raise NotImplementedError(f"Marianne switch {switches} found; compare on and off")


def _variants(grid: Mapping[str, list], base_params) -> tuple[dict, list[dict]]:
    """The base parameters and every combination of the grid, each validated."""
    if not isinstance(grid, Mapping) or not grid:
        raise BalanceError("grid must be a non-empty dict of parameter -> list of values")
    base = dict(_rules(base_params).to_params())
    unknown = [p for p in grid if p not in PARAMETER_DEFAULTS]
    if unknown:
        raise RulesError(f"unknown parameter(s) {unknown}: the parameters are "
                         f"{', '.join(PARAMETER_DEFAULTS)}")
    for name, values in grid.items():
        if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__") \
                or len(list(values)) == 0:
            raise BalanceError(f"grid[{name!r}] must be a non-empty list of values, got "
                               f"{values!r}")
    names = list(grid)
    combos = []
    for values in itertools.product(*(list(grid[n]) for n in names)):
        combo = dict(zip(names, values))
        try:
            from_params({**base, **combo})
        except RulesError as err:
            raise RulesError(f"{_label(combo)}: {err}") from None
        combos.append(combo)
    return base, combos


def _label(combo: Mapping[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in combo.items()) or "defaults"


def sweep(grid: Mapping[str, list], base_params=None, games: int = 40, seed: int = 0,
          players: str = STRONGEST, marianne_games: int = 0) -> pd.DataFrame:
    """Balance of every combination of the grid's values (other parameters from
    base_params, else the defaults): one row per (variant, metric) with the value and its
    95% interval; the grid's parameters are columns too. Every combination is validated
    before any game is played (one-line RulesError naming the variant)."""
    games = _check_games(games)
    seed = _check_seed(seed)
    _check_players(players)
    base, combos = _variants(grid, base_params)
    frames = []
    for combo in combos:
        r = balance({**base, **combo}, games, seed, players, marianne_games=marianne_games)
        rows = r.tidy()
        rows.insert(0, "variant", _label(combo))
        for i, (name, value) in enumerate(combo.items()):
            rows.insert(1 + i, name, value)
        frames.append(rows)
    return pd.concat(frames, ignore_index=True)


def effects(grid: Mapping[str, list] | None = None, base_params=None, games: int = 40,
            seed: int = 0, players: str = STRONGEST, marianne_games: int = 0,
            metrics: tuple[str, ...] = HEADLINE) -> pd.DataFrame:
    """One parameter at a time around base_params (default EFFECT_GRID): per parameter,
    value and metric, the variant's value minus the base's, with a 95% interval (the two
    runs' intervals combined as independent: half-widths added in quadrature)."""
    grid = EFFECT_GRID if grid is None else grid
    games = _check_games(games)
    seed = _check_seed(seed)
    _check_players(players)
    base = dict(_rules(base_params).to_params())
    for name, values in grid.items():      # validate everything first
        _variants({name: values}, base)
    ref = balance(base, games, seed, players, marianne_games=marianne_games).tidy()
    ref = ref.set_index("metric")
    rows = []
    for name, values in grid.items():
        for value in values:
            if from_params({**base, name: value}) == from_params(base):
                continue                   # the base itself (compact or written out)
            var = balance({**base, name: value}, games, seed, players,
                          marianne_games=marianne_games).tidy().set_index("metric")
            for m in metrics:
                if m not in var.index or m not in ref.index:
                    continue
                a, b = ref.loc[m], var.loc[m]
                delta = b["value"] - a["value"]
                half = math.hypot(a["hi"] - a["value"], b["hi"] - b["value"])
                rows.append({"parameter": name, "value": str(value),
                             "default": str(from_params(base).contents()[name]), "metric": m,
                             "at_default": a["value"], "at_value": b["value"],
                             "delta": delta, "lo": delta - half, "hi": delta + half})
    return pd.DataFrame(rows, columns=["parameter", "value", "default", "metric",
                                       "at_default", "at_value", "delta", "lo", "hi"])
